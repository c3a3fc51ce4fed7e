/** @module Benchmark of cached `POST /chat` against a bare `Bun.serve` in one run, driven by wrk. */
/**
 * Cached `POST /chat` against a bare `Bun.serve` (parses the same JSON, checks the key, answers a
 * body of the same size) in one run, with wrk (Debian's `wrk`, an external load generator): rounds
 * alternate baseline and service, each a short wrk run; prints req/s medians, their spread and the ratio.
 *
 *   bun bench/cached-wrk.ts [--targets bun,binary] [--rounds 5] [--seconds 5] [--connections 16]
 *     [--rate-limit 100000000/min]
 *
 * The service's answers are checked to carry the contract's headers (`x-request-id`, `Server-Timing`, and
 * the `RateLimit-*` fields when `--rate-limit` gives the key a limit), and its log is written to a file
 * whose request lines are counted: every request wrk sent must have its line.
 *
 * Loopback only; every process is stopped. About targets × rounds × 2 × (seconds + 1) s.
 */
import { spawn, which } from "bun";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { parseArgs } from "node:util";
import { startFakeYoutube } from "../tests/support/fake/youtube.ts";
import { binaryPath, ROOT } from "../tests/support/service/process.ts";
import { median } from "../tests/support/rss.ts";
import { freePort } from "./support/startup-measure.ts";
import { BODY, KEY, runWrk, serviceEnv, waitForAnswer, writeWrkScript } from "./support/cached-load.ts";

const { values: args } = parseArgs({
  options: {
    targets: { type: "string", default: "bun,binary" },
    rounds: { type: "string", default: "5" },
    seconds: { type: "string", default: "5" },
    connections: { type: "string", default: "16" },
    "rate-limit": { type: "string" },
  },
});

if (!which("wrk")) {
  console.log("cached-wrk: wrk is not installed (apt-get install -y wrk); skipped");
  process.exit(0);
}
const script = `/tmp/cached-wrk-${process.pid}.lua`;
writeWrkScript(script);
const youtube = startFakeYoutube();

/** The contract's headers a cached answer must carry: a request id and Server-Timing, and RateLimit-* under a limit. */
async function checkHeaders(url: string): Promise<void> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": KEY },
    body: BODY,
  });
  await response.arrayBuffer();
  const wanted = ["x-request-id", "server-timing", "content-type"];
  if (args["rate-limit"]) wanted.push("ratelimit-limit", "ratelimit-remaining", "ratelimit-reset");
  const missing = wanted.filter((name) => !response.headers.has(name));
  if (missing.length > 0 || !response.headers.get("server-timing")?.includes("cache;desc=hit")) {
    throw new Error(`the cached answer lacks ${missing.join(", ") || "cache;desc=hit"}`);
  }
}

/** @returns the request lines of a log written as JSON lines */
function requestLines(path: string): number {
  return readFileSync(path, "utf8").split("\n").filter((line) => line.includes('"event":"request"')).length;
}

/** @returns req/s of one wrk run against a fresh server started by `command` */
async function measure(command: string[], isService: boolean): Promise<number> {
  const port = await freePort();
  const env = {
    ...serviceEnv(port, youtube.origin),
    // No limit unless --rate-limit gives one: the default (60/min) would refuse the load.
    RATE_LIMIT: args["rate-limit"] ?? "none",
  };
  const log = `/tmp/cached-wrk-${process.pid}-${port}.log`;
  const child = spawn(command, { cwd: ROOT, env, stdout: Bun.file(log), stderr: "inherit" });
  try {
    const url = `http://127.0.0.1:${port}/chat`;
    await waitForAnswer(url);
    if (isService) await checkHeaders(url);
    runWrk(url, { script, connections: args.connections!, seconds: 1 }); // warm-up
    const { requests: sent, rate } = runWrk(url, { script, connections: args.connections!, seconds: args.seconds! });
    if (isService) {
      // Lines are written once per timer turn: the last turn's are out before the server stops.
      await Bun.sleep(100);
      const logged = requestLines(log);
      if (!(logged >= sent)) throw new Error(`${sent} requests measured but ${logged} request log lines`);
    }
    return rate;
  } finally {
    child.kill("SIGTERM");
    await child.exited;
    rmSync(log, { force: true });
  }
}

const spread = (values: number[]) => `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)}`;
try {
  for (const target of args.targets!.split(",")) {
    if (target === "binary" && !existsSync(binaryPath())) {
      console.log(`binary: ${binaryPath()} missing (bun run build); skipped`);
      continue;
    }
    const service = target === "binary" ? [binaryPath()] : [process.execPath, "src/app/main-bun.ts"];
    const bare: number[] = [];
    const served: number[] = [];
    for (let round = 0; round < Number(args.rounds); round++) {
      bare.push(await measure([process.execPath, "bench/support/bare-server.ts", "keyed"], false));
      served.push(await measure(service, true));
    }
    const ratios = served.map((value, i) => value / bare[i]!);
    console.log(
      `cached-wrk (${target}${args["rate-limit"] ? `, RATE_LIMIT ${args["rate-limit"]}` : ""}): bare ${
        median(bare).toFixed(0)
      } req/s (${spread(bare)}), service ${median(served).toFixed(0)} (${spread(served)}); ratio median ${
        median(ratios).toFixed(2)
      } (rounds ${ratios.map((r) => r.toFixed(2)).join(" ")})`,
    );
  }
} finally {
  await youtube.close();
}
process.exit(0);
