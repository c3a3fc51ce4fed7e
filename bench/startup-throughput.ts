/** @module Benchmark of start-up time, idle memory and cached throughput on Bun, the binary and Deno. */
/**
 * Start-up time, idle memory and cached throughput of each way to run the
 * service: `bun run server`, the compiled binary (built here, copied alone
 * into an empty directory and run from it) and `deno task server`.
 *
 * - start-up: from just before spawn to the first 200 from GET /swagger/json
 *   (median of --runs starts, after one unmeasured start that warms caches)
 * - idle RSS: the process tree (launcher included) and the serving process alone,
 *   1 s after start-up, before any request
 * - cached POST /chat requests per second, relative to a bare Bun.serve handler
 *   that parses the same body and returns a fixed JSON: same load client
 *   (tests/support/load-connection.ts), same connections, same duration, same run
 *
 *   bun bench/startup-throughput.ts [--runs 5] [--connections 16] [--seconds 5] [--targets binary,bun,deno]
 *
 * Loopback only; every process it starts is stopped. Bounded: about
 * (runs + 2) × start-up + 2 × (seconds + 1) per target, plus the build.
 */
import { spawnSync } from "bun";
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { startFakeLlm } from "../tests/support/fake/llm.ts";
import { startFakeYoutube } from "../tests/support/fake/youtube.ts";
import { watchUrl } from "../tests/support/fixtures.ts";
import { commandFor, ROOT, type Target } from "../tests/support/service/process.ts";
import { median, rssMiB } from "../tests/support/rss.ts";
import { type Measured, measureThroughput, startMeasured } from "./support/startup-measure.ts";

const { values: args } = parseArgs({
  options: {
    runs: { type: "string", default: "5" },
    connections: { type: "string", default: "16" },
    seconds: { type: "string", default: "5" },
    targets: { type: "string", default: "binary,bun,deno" },
  },
});
const RUNS = Number(args.runs);
const LOAD = { connections: Number(args.connections), seconds: Number(args.seconds), warmupSeconds: 1 };
const TARGETS = args.targets.split(",") as Target[];
const KEY = "bench-key-0123456789";
const BODY = JSON.stringify({
  url: watchUrl("normal"),
  prompt: "What does the reviewer think of the keyboard?",
  language: "en",
  output_format: "text",
});
const HEADERS = { "x-api-key": KEY };

const youtube = startFakeYoutube();
const llm = startFakeLlm();
const env = {
  API_KEYS: KEY,
  YOUTUBE_BASE_URL: youtube.origin,
  GROQ_API_KEY: "gsk_bench",
  GROQ_BASE_URL: llm.baseUrl,
  LOG_FORMAT: "json",
  // One key sends the whole load: the default limit (60/min) would refuse it.
  RATE_LIMIT: "none",
};
const binaryDir = mkdtempSync(join(tmpdir(), "vcs-bench-binary-"));

/** The serving process: the deepest of the tree (`bun run` and `deno task` run it as a child). */
function serverPid(pid: number): number {
  try {
    const children = readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim().split(/\s+/).filter(Boolean)
    );
    return children.length > 0 ? serverPid(Number(children[0])) : pid;
  } catch {
    return pid;
  }
}

type Baseline = "bare" | "elysia";

function launch(target: Target | Baseline): Promise<Measured> {
  if (target === "bare" || target === "elysia") {
    return startMeasured([process.execPath, "bench/support/bare-server.ts", target], {}, { cwd: ROOT, readyPath: "/" });
  }
  const command = target === "binary" ? [join(binaryDir, "video-chat-service")] : commandFor(target);
  return startMeasured(command, env, { cwd: target === "binary" ? binaryDir : ROOT, readyPath: "/swagger/json" });
}

async function startupOf(target: Target): Promise<{ median: number; min: number; max: number }> {
  const times: number[] = [];
  for (let run = 0; run <= RUNS; run++) {
    const measured = await launch(target);
    if (run > 0) times.push(measured.startupMs);
    await measured.stop();
  }
  return { median: median(times), min: Math.min(...times), max: Math.max(...times) };
}

async function throughputOf(
  target: Target | Baseline,
): Promise<{ rps: number; errors: number; idleTree: number; idleServer: number }> {
  const measured = await launch(target);
  try {
    await Bun.sleep(1_000);
    const idleTree = rssMiB(measured.process.pid);
    const idleServer = rssMiB(serverPid(measured.process.pid));
    const warm = await fetch(`${measured.url}/chat`, {
      method: "POST",
      headers: { ...HEADERS, "content-type": "application/json" },
      body: BODY,
    });
    if (warm.status !== 200) {
      throw new Error(`${target}: warm-up POST /chat answered ${warm.status}: ${await warm.text()}`);
    }
    const load = await measureThroughput(measured.url, "/chat", HEADERS, BODY, LOAD);
    return { ...load, idleTree, idleServer };
  } finally {
    await measured.stop();
  }
}

function build(): void {
  const result = spawnSync([process.execPath, "run", "build"], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  if (result.exitCode !== 0) throw new Error(`bun run build failed:\n${result.stderr.toString()}`);
  copyFileSync(join(ROOT, "dist", "video-chat-service"), join(binaryDir, "video-chat-service"));
  spawnSync(["chmod", "+x", join(binaryDir, "video-chat-service")]);
}

const f1 = (n: number): string => n.toFixed(1);
try {
  if (TARGETS.includes("binary")) build();
  console.log(
    `startup-throughput: ${RUNS} starts per target (median), load ${LOAD.connections} keep-alive connections x ${LOAD.seconds} s after ${LOAD.warmupSeconds} s warm-up, cached POST /chat`,
  );
  const bareBefore = await throughputOf("bare");
  const results: {
    target: Target;
    startup: Awaited<ReturnType<typeof startupOf>>;
    load: Awaited<ReturnType<typeof throughputOf>>;
  }[] = [];
  for (const target of TARGETS) {
    results.push({ target, startup: await startupOf(target), load: await throughputOf(target) });
  }
  const bareAfter = await throughputOf("bare");
  const elysia = await throughputOf("elysia");
  const bare = (bareBefore.rps + bareAfter.rps) / 2;
  console.log(
    `bare    Bun.serve parsing the body, fixed JSON: ${f1(bare)} req/s (${f1(bareBefore.rps)} before the targets, ${
      f1(bareAfter.rps)
    } after)  idle RSS ${f1(bareBefore.idleServer)} MiB`,
  );
  console.log(
    `elysia  minimal Elysia app, t.Object body, fixed JSON (framework floor, for reference): ${
      f1(elysia.rps)
    } req/s = ${(elysia.rps / bare).toFixed(2)} of bare`,
  );
  for (const { target, startup, load } of results) {
    console.log(
      `${target.padEnd(7)} start-up ${f1(startup.median)} ms (min ${f1(startup.min)}, max ${
        f1(startup.max)
      })  idle RSS ${f1(load.idleTree)} MiB tree / ${f1(load.idleServer)} MiB server  cached POST /chat ${
        f1(load.rps)
      } req/s = ${(load.rps / bare).toFixed(2)} of bare${load.errors ? ` (${load.errors} non-200)` : ""}`,
    );
  }
  console.log(`goals: binary start-up < 50 ms; cached throughput >= 0.90 of bare`);
} finally {
  rmSync(binaryDir, { recursive: true, force: true });
  await youtube.close();
  await llm.close();
}
