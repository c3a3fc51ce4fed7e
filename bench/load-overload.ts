/** @module Load test of the overload bound: many connections against slow upstreams, with latency and memory. */
/**
 * Load test of the overload bound: many concurrent keep-alive connections
 * against one instance whose upstreams are slow loopback fakes. Every
 * response must be 200 or 503 `overloaded`, none may hang, and memory must
 * stay bounded. Prints throughput, latency percentiles and the service's
 * peak RSS (from /proc/<pid>/status).
 *
 *   bun bench/load-overload.ts [--connections 500] [--seconds 10] [--rounds 2] [--max-in-flight 32] [--llm-delay-ms 2000]
 *
 * Loopback only; bounded by --rounds x --seconds plus a drain of at most 30 s.
 */
import { spawn, type Subprocess } from "bun";
import { readFileSync } from "node:fs";
import { ANSWERS, startFakeLlm } from "../tests/support/fake-llm.ts";
import { startFakeYoutube } from "../tests/support/fake-youtube.ts";
import { watchUrl } from "../tests/support/fixtures.ts";
import { ROOT } from "../tests/support/service-process.ts";
import { LoadConnection, type LoadResponse } from "./load-http-connection.ts";

export interface LoadOptions {
  connections: number;
  seconds: number;
  rounds: number;
  maxInFlight: number;
  llmDelayMs: number;
  /** A request with no response after this long counts as hung. */
  hangMs: number;
}

/** What one round measured. */
export interface RoundReport {
  round: number;
  requests: number;
  ok: number;
  overloaded: number;
  other: Record<string, number>;
  hung: number;
  throughput: number;
  p50Ms: number;
  p99Ms: number;
  p99OverloadedMs: number;
  p99OkMs: number;
  peakRssMiB: number;
}

const KEY = "bench-load-key-0123456789";

/** Runs the rounds against a fresh service and returns a report per round, plus the service's VmHWM. */
export async function runLoad(
  options: LoadOptions,
  print: (line: string) => void = () => {},
): Promise<{ rounds: RoundReport[]; vmHwmMiB: number }> {
  const youtube = startFakeYoutube();
  const llm = startFakeLlm();
  llm.respondWith(() => ({ content: ANSWERS.en!, delayMs: options.llmDelayMs }));
  const service = await startServer({
    API_KEYS: KEY,
    MAX_IN_FLIGHT: String(options.maxInFlight),
    YOUTUBE_BASE_URL: youtube.origin,
    GROQ_API_KEY: "gsk_fake",
    GROQ_BASE_URL: llm.baseUrl,
    LOG_FORMAT: "json",
  });
  const rounds: RoundReport[] = [];
  try {
    for (let round = 1; round <= options.rounds; round++) {
      const report = await runRound(round, service, options);
      rounds.push(report);
      print(formatRound(report));
    }
    return { rounds, vmHwmMiB: statusMiB(service.pid, "VmHWM") };
  } finally {
    service.child.kill("SIGKILL");
    await youtube.close();
    await llm.close();
  }
}

async function runRound(round: number, service: Server, options: LoadOptions): Promise<RoundReport> {
  const connections = await Promise.all(
    Array.from({ length: options.connections }, () => LoadConnection.open("127.0.0.1", service.port)),
  );
  const results: LoadResponse[] = [];
  let hung = 0;
  let peakRss = 0;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, statusMiB(service.pid, "VmRSS"))), 100);
  const started = performance.now();
  const until = started + options.seconds * 1000;
  await Promise.all(connections.map(async (connection, c) => {
    for (let i = 0; performance.now() < until; i++) {
      const body = JSON.stringify({ url: watchUrl("normal"), prompt: `round ${round} connection ${c} question ${i}` });
      try {
        results.push(await connection.post("/chat", { "x-api-key": KEY }, body, options.hangMs));
      } catch {
        hung++;
        return;
      }
    }
  }));
  const elapsed = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peakRss = Math.max(peakRss, statusMiB(service.pid, "VmRSS"));
  for (const connection of connections) connection.close();
  const latencies = results.map((r) => r.ms).sort((a, b) => a - b);
  const overloaded = results.filter((r) => r.status === 503 && r.code === "overloaded");
  const other: Record<string, number> = {};
  for (const r of results) {
    if (r.status !== 200 && !(r.status === 503 && r.code === "overloaded")) {
      other[`${r.status} ${r.code}`] = (other[`${r.status} ${r.code}`] ?? 0) + 1;
    }
  }
  return {
    round,
    requests: results.length,
    ok: results.filter((r) => r.status === 200).length,
    overloaded: overloaded.length,
    other,
    hung,
    throughput: results.length / elapsed,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    p99OverloadedMs: percentile(overloaded.map((r) => r.ms).sort((a, b) => a - b), 0.99),
    p99OkMs: percentile(results.filter((r) => r.status === 200).map((r) => r.ms).sort((a, b) => a - b), 0.99),
    peakRssMiB: peakRss,
  };
}

interface Server {
  child: Subprocess;
  pid: number;
  port: number;
}

/** Starts `bun src/app/main-bun.ts` itself (not through `bun run`), so its pid is the server's. */
async function startServer(env: Record<string, string>): Promise<Server> {
  const child = spawn([process.execPath, `${ROOT}src/app/main-bun.ts`], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", PORT: "0", HOST: "127.0.0.1", ...env },
    stdout: "pipe",
    stderr: "inherit",
  });
  const reader = child.stdout.getReader();
  const decoder = new TextDecoder();
  let output = "";
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const { value, done } = await reader.read();
    if (done) break;
    output += decoder.decode(value, { stream: true });
    const port = /listening on http:\/\/[^:]+:(\d+)/.exec(output)?.[1];
    if (port) {
      void (async () => {
        while (!(await reader.read()).done);
      })();
      return { child, pid: child.pid, port: Number(port) };
    }
  }
  child.kill("SIGKILL");
  throw new Error(`The service did not start:\n${output}`);
}

/** @returns a /proc/<pid>/status size field in MiB, 0 when unreadable */
function statusMiB(pid: number, field: "VmRSS" | "VmHWM"): number {
  try {
    const kib = Number(
      new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0,
    );
    return kib / 1024;
  } catch {
    return 0;
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

function formatRound(r: RoundReport): string {
  const other = Object.entries(r.other).map(([k, v]) => `${k}: ${v}`).join(", ") || "none";
  return `round ${r.round}: ${r.requests} responses (${r.ok} 200, ${r.overloaded} 503 overloaded, other: ${other}, hung: ${r.hung}); ` +
    `${r.throughput.toFixed(0)} req/s; latency p50 ${r.p50Ms.toFixed(1)} ms, p99 ${r.p99Ms.toFixed(1)} ms (200 p99 ${
      r.p99OkMs.toFixed(1)
    } ms, 503 p99 ${r.p99OverloadedMs.toFixed(1)} ms); peak RSS ${r.peakRssMiB.toFixed(1)} MiB`;
}

function argument(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  const value = index >= 0 ? Number(process.argv[index + 1]) : fallback;
  if (!Number.isFinite(value) || value <= 0) {
    throw new Error(`--${name} must be a positive number: current value is ${process.argv[index + 1]}`);
  }
  return value;
}

if (import.meta.main) {
  const options: LoadOptions = {
    connections: Math.min(argument("connections", 500), 2_000),
    seconds: Math.min(argument("seconds", 10), 120),
    rounds: Math.min(argument("rounds", 2), 10),
    maxInFlight: argument("max-in-flight", 32),
    llmDelayMs: argument("llm-delay-ms", 2_000),
    hangMs: 30_000,
  };
  console.log(
    `load-overload: ${options.connections} connections, ${options.rounds} x ${options.seconds} s, MAX_IN_FLIGHT=${options.maxInFlight}, fake LLM delay ${options.llmDelayMs} ms`,
  );
  const { rounds, vmHwmMiB } = await runLoad(options, (line) => console.log(line));
  const bad = rounds.reduce((n, r) => n + r.hung + Object.values(r.other).reduce((a, b) => a + b, 0), 0);
  console.log(
    `service VmHWM (peak RSS) ${vmHwmMiB.toFixed(1)} MiB; ${
      bad === 0
        ? "every response 200 or 503 overloaded, none hung"
        : `${bad} responses were neither 200 nor 503 overloaded, or hung`
    }`,
  );
  process.exit(bad === 0 ? 0 : 1);
}
