/** @module Benchmark of memory under issue 23's load: RSS per round and the heap's largest retainers by type. */
/**
 * Memory under the issue-23 load: ROUNDS rounds of REQUESTS requests, CONCURRENCY at a time;
 * half ask about distinct unknown video ids (422), half ask distinct questions about one video
 * (200), with the answer cache bounded at 2,000. Prints RSS (process tree) after each round and,
 * on Bun, the heap's object types that grew most from round 1 to the last (after a full GC).
 *
 *   bun bench/memory.ts [bun|binary|deno ...] [--requests 4000] [--rounds 3] [--concurrency 12]
 *
 * Loopback fakes only; about a minute per target.
 */
import { existsSync, readFileSync, rmSync } from "node:fs";
import { parseArgs } from "node:util";
import { startFakeLlm } from "../tests/support/fake/llm.ts";
import { startFakeYoutube } from "../tests/support/fake/youtube.ts";
import { VIDEOS } from "../tests/support/fixtures.ts";
import { binaryPath, ROOT, type RunningService, startService, type Target } from "../tests/support/service/process.ts";
import { rssMiB } from "../tests/support/rss.ts";
import { connectInspector } from "../tests/support/heap/inspector.ts";

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    requests: { type: "string", default: "4000" },
    rounds: { type: "string", default: "3" },
    concurrency: { type: "string", default: "12" },
  },
});
const REQUESTS = Number(args.requests);
const ROUNDS = Number(args.rounds);
const CONCURRENCY = Number(args.concurrency);
const TARGETS = (positionals.length ? positionals : ["bun", "binary", "deno"]) as Target[];
const KEY = "memory-key-0123456789";

const youtube = startFakeYoutube();
const llm = startFakeLlm();
llm.respondWith(() => ({ content: "The video reviews a small tablet and likes its screen [0:01]." }));
const env = {
  ...(process.env.MEM_EXTRA ? JSON.parse(process.env.MEM_EXTRA) : {}),
  API_KEYS: KEY,
  YOUTUBE_BASE_URL: youtube.origin,
  GROQ_API_KEY: "gsk_memory",
  GROQ_BASE_URL: llm.baseUrl,
  LLM_MAX_RETRIES: "0",
  ANSWER_CACHE_MAX_ENTRIES: "2000",
};

/** Starts a target; Bun's gets the heap probe preloaded. */
async function start(target: Target, probeFile: string): Promise<RunningService> {
  if (target === "deno") {
    const command = [
      `${ROOT}node_modules/.bin/deno`,
      "run",
      "--v8-flags=--optimize-for-size",
      `--inspect=127.0.0.1:${INSPECT_PORT}`,
      "--allow-net",
      "--allow-env",
      "--allow-read",
      "--allow-write",
      `${ROOT}src/app/main-deno.ts`,
    ];
    return await startService(env, { target, command });
  }
  if (target !== "bun") return await startService(env, { target });
  const command = [process.execPath, "--preload", `${ROOT}tests/support/heap/probe.ts`, `${ROOT}src/app/main-bun.ts`];
  return await startService({ ...env, MEMORY_PROBE_FILE: probeFile }, { target, command });
}

async function heapTypes(service: RunningService, probeFile: string): Promise<Record<string, number> | undefined> {
  rmSync(probeFile, { force: true });
  service.process.kill("SIGUSR2");
  for (let i = 0; i < 100 && !existsSync(probeFile); i++) await Bun.sleep(50);
  await Bun.sleep(100);
  return existsSync(probeFile) ? JSON.parse(readFileSync(probeFile, "utf8")).types : undefined;
}

const INSPECT_PORT = 9400 + (process.pid % 500);

/** Deno's heap after a full GC, in MiB: used and total (V8), and external. */
async function denoHeap(): Promise<string> {
  const inspector = await connectInspector(INSPECT_PORT);
  try {
    await inspector.gc();
    const usage = (await inspector.evaluate("JSON.stringify(Deno.memoryUsage())")) as string;
    const { heapUsed, heapTotal, external } = JSON.parse(usage) as {
      heapUsed: number;
      heapTotal: number;
      external: number;
    };
    const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
    return `heap used ${mib(heapUsed)} / total ${mib(heapTotal)}, external ${mib(external)}`;
  } finally {
    inspector.close();
  }
}

let counter = 0;
async function round(url: string, statuses: Map<number, number>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < REQUESTS) {
      next++;
      const n = counter++;
      const body = n % 2
        ? { url: `https://youtu.be/u${String(n).padStart(10, "0")}`, prompt: "what?" }
        : { url: `https://youtu.be/${VIDEOS.normal.id}`, prompt: `question ${n} about the screen?` };
      const response = await fetch(`${url}/chat`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": KEY },
        body: JSON.stringify(body),
      });
      await response.arrayBuffer();
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

for (const target of TARGETS) {
  if (target === "binary" && !existsSync(binaryPath())) {
    console.log(`binary: ${binaryPath()} missing (bun run build)`);
    continue;
  }
  const probeFile = `/tmp/memory-probe-${process.pid}.json`;
  const service = await start(target, probeFile);
  const statuses = new Map<number, number>();
  const rss = [rssMiB(service.process.pid)];
  const first = target === "bun" ? await heapTypes(service, probeFile) : undefined;
  let afterFirst: Record<string, number> | undefined;
  let last: Record<string, number> | undefined;
  for (let r = 1; r <= ROUNDS; r++) {
    await round(service.url, statuses);
    await Bun.sleep(500);
    rss.push(rssMiB(service.process.pid));
    if (target === "deno") {
      console.log(
        `deno: after round ${r}: RSS ${rss.at(-1)!.toFixed(1)} MiB; after a full GC: ${await denoHeap()}, RSS ${
          rssMiB(service.process.pid).toFixed(1)
        } MiB`,
      );
    }
    if (target === "bun") {
      last = await heapTypes(service, probeFile);
      if (r === 1) afterFirst = last;
    }
  }
  await service.stop();
  const growth = rss.slice(1).map((value, i) => (value - rss[i]!).toFixed(1));
  console.log(
    `${target}: RSS MiB start ${rss[0]!.toFixed(1)}, after each round ${
      rss.slice(1).map((v) => v.toFixed(1)).join(" → ")
    } (growth per round ${growth.join(", ")}); statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
  );
  if (first && afterFirst && last) {
    const grown = Object.entries(last).map(([type, count]) => ({
      type,
      count,
      sinceStart: count - (first[type] ?? 0),
      sinceRound1: count - (afterFirst[type] ?? 0),
    }));
    grown.sort((a, b) => b.sinceRound1 - a.sinceRound1);
    console.log(
      `${target}: heap object types that grew most after round 1 (type: count now, +since round 1, +since start)`,
    );
    for (const g of grown.slice(0, 15)) console.log(`  ${g.type}: ${g.count}, +${g.sinceRound1}, +${g.sinceStart}`);
  }
}
await youtube.close();
await llm.close();
process.exit(0);
