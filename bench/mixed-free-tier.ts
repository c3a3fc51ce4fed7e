/** @module Benchmark of a long summary and a stream of short questions on the free plan, before and after. */
/**
 * Benchmark (issue 22): one long summary and a stream of short questions on a
 * free Groq key, end to end through the real service, before and after fair
 * admission. The fake LLM enforces llama-3.1-8b-instant's free plan (6,000
 * tokens and 30 requests a minute) and answers in 300 ms plus 2 ms per output
 * token. At t=0 a 3-hour summary; from t=2 s a short question about a
 * 5-minute video every 15 s (about three quarters of what the window serves
 * once the summary is planned), until the run's end. Each tree gets a fresh
 * service, fake LLM and fake YouTube.
 *
 * Prints per tree: the short questions' p50/p95 latency, how many were
 * refused (any non-200), the summary's status, wall time and coverage, and
 * the provider's refusals (429/413); then after/before ratios.
 *
 * Run: bun bench/mixed-free-tier.ts [--seconds=180] [--every=15] [--scale=1] [--before=/path/to/main]
 *   --seconds: the run's real length (the brief: 3 minutes); --scale: plays
 *   windows, deadlines and the question interval that many times faster
 *   (checks the script in seconds); --before: a checkout of the code to
 *   compare with (its own node_modules), run first. Loopback only.
 */
import { spawn } from "bun";
import { type Responder, startFakeLlm } from "../tests/support/fake-llm.ts";
import { startFakeYoutube } from "../tests/support/fake-youtube.ts";
import { VIDEOS, watchUrl } from "../tests/support/fixtures.ts";
import { captionXml, generateCues } from "../tests/support/long-transcript.ts";
import { requestLogLines } from "../tests/support/request-log-lines.ts";
import type { RunningService } from "../tests/support/service-process.ts";

const args = new Map(process.argv.slice(2).map((arg) => arg.replace(/^--/, "").split("=") as [string, string]));
const SECONDS = Number(args.get("seconds") ?? 180);
const SCALE = Number(args.get("scale") ?? 1);
const BEFORE = args.get("before");
const EVERY_S = Number(args.get("every") ?? 15);
const WINDOW_MS = 60_000 / SCALE;
const KEY = "bench-key-0123456789";
const TOPICS = ["battery", "keyboard", "screen", "camera", "price", "speakers", "weight", "charger", "stylus"];

interface Result {
  tree: string;
  shortMs: number[];
  shortRefused: number;
  summary: { status: number; ms: number; coverage: unknown; plan: unknown };
  provider429: number;
  provider413: number;
}

/** Starts `bun run server` of the tree at `dir` and waits for its address. */
async function startTree(dir: string, env: Record<string, string>): Promise<RunningService> {
  let output = "";
  const child = spawn([process.execPath, "run", "--cwd", dir, "server"], {
    cwd: dir,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "/tmp",
      NO_COLOR: "1",
      PORT: "0",
      HOST: "127.0.0.1",
      LOG_FORMAT: "json",
      ...env,
    },
    stdout: "pipe",
    stderr: "pipe",
  });
  const collect = async (stream: ReadableStream<Uint8Array>) => {
    for await (const chunk of stream) output += new TextDecoder().decode(chunk);
  };
  void collect(child.stdout);
  void collect(child.stderr);
  const deadline = Date.now() + 30_000;
  let url: string | undefined;
  while (!(url = /listening on (http:\/\/[^\s]+)/.exec(output)?.[1])) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`${dir} did not start:\n${output}`);
    await Bun.sleep(25);
  }
  return {
    url,
    process: child,
    output: () => output,
    stop: async () => (child.kill("SIGTERM"), await child.exited),
  } as RunningService;
}

const respond: Responder = (call) => {
  const notes = /Part \d+ of \d+/.test(call.text);
  const content = notes
    ? "- [0:00] The reviewer covers one more aspect of the device."
    : "The reviewer says the tablet is good value [0:00].";
  return { content, delayMs: Math.round((300 + 2 * (call.maxTokens ?? 100) * 0.3) / SCALE) };
};

async function run(tree: string, dir: string): Promise<Result> {
  const youtube = startFakeYoutube();
  const llm = startFakeLlm({ limits: { tokensPerWindow: 6_000, requestsPerWindow: 30, windowMs: WINDOW_MS } });
  llm.respondWith(respond);
  youtube.setCaption(VIDEOS.normal.id, captionXml(generateCues(3 * 3600)));
  youtube.setCaption(VIDEOS.twoTracks.id, captionXml(generateCues(5 * 60)));
  const service = await startTree(dir, {
    API_KEYS: KEY,
    YOUTUBE_BASE_URL: youtube.origin,
    GROQ_API_KEY: "gsk_bench",
    GROQ_BASE_URL: llm.baseUrl,
    LLM_BUDGET_WINDOW_MS: String(WINDOW_MS),
    REQUEST_TIMEOUT_MS: String(120_000 / SCALE),
    ANSWER_CACHE_TTL_MS: "0",
  });
  const chat = (body: unknown) =>
    fetch(`${service.url}/chat`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": KEY },
      body: JSON.stringify(body),
    });
  try {
    const began = performance.now();
    const summary = chat({ url: watchUrl("normal") }).then(async (response) => ({
      response,
      ms: performance.now() - began,
    }));
    const shorts: Promise<{ status: number; ms: number }>[] = [];
    await Bun.sleep(2_000 / SCALE);
    for (let i = 0; performance.now() - began < (SECONDS * 1000) / SCALE; i++) {
      const asked = performance.now();
      shorts.push(
        chat({
          url: watchUrl("twoTracks"),
          language: "en",
          prompt: `Question ${i}: what does the reviewer say about the ${TOPICS[i % TOPICS.length]}?`,
        }).then(async (r) => (await r.arrayBuffer(), { status: r.status, ms: performance.now() - asked })),
      );
      await Bun.sleep((EVERY_S * 1000) / SCALE);
    }
    const [done, answered] = await Promise.all([summary, Promise.all(shorts)]);
    const line = (await requestLogLines(service, done.response))[0] ?? {};
    const ok = answered.filter((a) => a.status === 200).map((a) => a.ms);
    return {
      tree,
      shortMs: ok.sort((a, b) => a - b),
      shortRefused: answered.length - ok.length,
      summary: { status: done.response.status, ms: done.ms, coverage: line.coverage, plan: line.plan },
      provider429: llm.calls.filter((c) => c.refused === 429).length,
      provider413: llm.calls.filter((c) => c.refused === 413).length,
    };
  } finally {
    await service.stop();
    await llm.close();
    await youtube.close();
  }
}

const quantile = (
  sorted: number[],
  q: number,
) => (sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!);
const seconds = (ms: number) => (Number.isNaN(ms) ? "–" : `${(ms / 1000).toFixed(1)} s`);

const trees: [string, string][] = [...(BEFORE ? ([["before", BEFORE]] as [string, string][]) : []), [
  "after",
  `${import.meta.dir}/..`,
]];
console.log(
  `mixed workload: ${SECONDS} s at scale ${SCALE} (window ${WINDOW_MS} ms); one 3-hour summary, a 5-minute question every ${
    EVERY_S / SCALE
  } s from ${2 / SCALE} s`,
);
const results: Result[] = [];
for (const [tree, dir] of trees) {
  const r = await run(tree, dir);
  results.push(r);
  console.log(
    `${tree.padEnd(6)}  short: ${r.shortMs.length} served, p50 ${seconds(quantile(r.shortMs, 0.5))}, p95 ${
      seconds(quantile(r.shortMs, 0.95))
    }, refused ${r.shortRefused}` +
      ` | summary: ${r.summary.status} in ${seconds(r.summary.ms)}, plan ${String(r.summary.plan)}, coverage ${
        String(r.summary.coverage)
      } | provider refused: ${r.provider429} × 429, ${r.provider413} × 413`,
  );
}
if (results.length === 2) {
  const [before, after] = results as [Result, Result];
  const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)}×` : "–");
  console.log(
    `after/before  short p50 ${ratio(quantile(after.shortMs, 0.5), quantile(before.shortMs, 0.5))}, p95 ${
      ratio(quantile(after.shortMs, 0.95), quantile(before.shortMs, 0.95))
    }, refused ${before.shortRefused} → ${after.shortRefused}, summary wall ${
      ratio(after.summary.ms, before.summary.ms)
    }`,
  );
}
