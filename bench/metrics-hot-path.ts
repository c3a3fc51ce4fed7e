/**
 * What the metrics add to one cached `POST /chat`, in process: the two calls
 * a cache hit makes (`request` from the request log, `answerLookup` from the
 * use case) on the real prom-client metrics, against the same calls on
 * no-op functions, timed over many iterations in alternating rounds.
 * Complements the HTTP comparison of cached-request-breakdown.ts
 * (`--stages service,service+metrics`), whose per-request CPU is read in
 * 10 ms ticks and moves by more than the cost measured here between rounds.
 *
 *   bun bench/metrics-hot-path.ts [--iterations 2000000] [--rounds 5]
 */
import { parseArgs } from "node:util";
import { createPrometheusMetrics } from "../src/app/metrics/prometheus-metrics.ts";
import type { RequestFacts } from "../src/app/request-log.ts";
import { median } from "../tests/soak/rss.ts";

const { values: args } = parseArgs({ options: { iterations: { type: "string", default: "2000000" }, rounds: { type: "string", default: "5" } } });
const ITERATIONS = Number(args.iterations);
const ROUNDS = Number(args.rounds);

type Recorder = { request(status: number, facts: RequestFacts, ms: number): void; answerLookup(result: "hit"): void };
const metrics = createPrometheusMetrics();
const noop: Recorder = { request() {}, answerLookup() {} };

/** @returns nanoseconds per simulated cache hit */
function time(recorder: Recorder): number {
  const started = performance.now();
  for (let i = 0; i < ITERATIONS; i++) {
    // A fresh facts object per request, as the app makes one.
    const facts: RequestFacts = { keyId: "key_0123456789ab", videoId: "GJLlxj_dtq8", promptLength: 7, cache: "hit" };
    recorder.answerLookup("hit");
    recorder.request(200, facts, 0.05 + (i & 7) * 0.01);
  }
  return ((performance.now() - started) * 1e6) / ITERATIONS;
}

time(metrics);
time(noop); // warm-up: both paths compiled before timing
const withMetrics: number[] = [];
const without: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  withMetrics.push(time(metrics));
  without.push(time(noop));
}
const added = median(withMetrics) - median(without);
console.log(`metrics-hot-path: ${ROUNDS} rounds x ${ITERATIONS} simulated cache hits`);
console.log(`with metrics ${median(withMetrics).toFixed(1)} ns, no-op recorders ${median(without).toFixed(1)} ns: ${added.toFixed(1)} ns = ${(added / 1000).toFixed(3)} µs added per cached request (goal: under 2 µs)`);
// The exposition must have seen every one: a benchmark that recorded nothing would look cheap.
const text = await metrics.render();
const counted = Number(/^vcs_http_requests_total\{status="200",code="none"\} (\d+)$/m.exec(text)?.[1]);
if (counted !== ITERATIONS * (ROUNDS + 1)) throw new Error(`expected ${ITERATIONS * (ROUNDS + 1)} requests counted, found ${counted}`);
