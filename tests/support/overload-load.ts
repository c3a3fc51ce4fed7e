/** @module The overload load run: many keep-alive connections against one instance with slow upstreams, per round. */
/**
 * Many concurrent keep-alive connections against one instance whose
 * upstreams are slow loopback fakes, for rounds of a few seconds: what came
 * back (200, 503 `overloaded`, anything else), what hung, throughput,
 * latency percentiles and the service's peak RSS (from /proc/<pid>/status).
 * Run large by bench/load-overload.ts and small by tests/e2e/overload-load.test.ts.
 */
import { spawn, type Subprocess } from "bun";
import { readFileSync } from "node:fs";
import { ANSWERS, startFakeLlm } from "./fake/llm.ts";
import { startFakeYoutube } from "./fake/youtube.ts";
import { watchUrl } from "./fixtures.ts";
import { ROOT } from "./service/process.ts";
import { LoadConnection, type LoadResponse } from "./load-connection.ts";

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
    // One key sends the whole load: it may take every place.
    MAX_IN_FLIGHT_PER_KEY: String(options.maxInFlight),
    // Nor may its rate limit (60/min unless set) turn the load away: the subject is the bound on work in flight.
    RATE_LIMIT: "none",
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
