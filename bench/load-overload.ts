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
 * Loopback only; bounded by --rounds x --seconds plus a drain of at most 30 s. The run itself is
 * tests/support/overload-load.ts, which the test suite runs small (tests/e2e/overload-load.test.ts).
 */
import { type LoadOptions, runLoad } from "../tests/support/overload-load.ts";

function argument(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  const value = index >= 0 ? Number(process.argv[index + 1]) : fallback;
  if (!Number.isFinite(value) || value <= 0) {
    throw new Error(`--${name} must be a positive number: current value is ${process.argv[index + 1]}`);
  }
  return value;
}

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
