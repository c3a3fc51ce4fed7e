/** @module Per-request Prometheus metrics: requests by status and code, durations, refusals, in flight. */
import { Gauge, Histogram, type Registry } from "prom-client";
import type { RequestFacts } from "../log/request-log.ts";
import { batchedCounter, type Increment } from "./label-children.ts";

/** Hits take well under a millisecond; generations seconds (up to REQUEST_TIMEOUT_MS). */
const REQUEST_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];
const CACHE_VALUES = ["hit", "miss", "shared", "none"] as const;

/**
 * The per-request metrics: requests by status and error code, their
 * duration by answer-cache result (a hit is not a generation), refusals,
 * requests in flight, and the time LLM answers waited for their share of
 * the provider's budget. `request` runs on every request: its counters
 * are found in maps and only add (see `batchedCounter`).
 *
 * @param registry where the metrics are registered
 */
export function createHttpMetrics(registry: Registry) {
  const registers = [registry];
  const requests = batchedCounter({
    name: "vcs_http_requests_total",
    help: "Requests answered, by HTTP status and error code (none for a 2xx).",
    labelNames: ["status", "code"],
    registers,
  });
  const seconds = new Histogram({
    name: "vcs_http_request_duration_seconds",
    help: "Time to answer a request, by answer-cache result (hit, miss, shared; none when no answer was looked up or " +
      "it failed).",
    labelNames: ["cache"],
    buckets: REQUEST_BUCKETS,
    registers,
  });
  const shareWait = new Histogram({
    name: "vcs_llm_request_budget_wait_seconds",
    help: "Time an LLM answer's calls waited for their fair share of the provider's budget, summed per request.",
    buckets: [0, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
    registers,
  });
  const refused = batchedCounter({
    name: "vcs_refused_requests_total",
    help: "Requests refused before any work, by reason (overloaded: MAX_IN_FLIGHT reached; rate_limited: the key's " +
      "rate limit; quota_exceeded: the key's quota, also for a video longer than the minutes left).",
    labelNames: ["reason"],
    registers,
  });
  let inFlight = (): number => 0;
  new Gauge({
    name: "vcs_http_requests_in_flight",
    help: "Requests on the public port being answered now, open streams included.",
    registers,
    collect() {
      this.set(inFlight());
    },
  });

  const timers = {} as Record<(typeof CACHE_VALUES)[number], { observe(value: number): void }>;
  for (const cache of CACHE_VALUES) timers[cache] = seconds.labels(cache);
  const overloaded = refused.child("overloaded");
  const rateLimited = refused.child("rate_limited");
  const quotaExceeded = refused.child("quota_exceeded");
  const counted = new Map<number, Map<string, Increment>>();
  const counter = (status: number, code: string): Increment => {
    let byCode = counted.get(status);
    if (!byCode) counted.set(status, byCode = new Map());
    let child = byCode.get(code);
    if (!child) byCode.set(code, child = requests.child(String(status), code));
    return child;
  };

  return {
    request(status: number, facts: RequestFacts, ms: number): void {
      const code = facts.errorCode ?? (status >= 500 ? "internal_error" : "none");
      counter(status, code).inc();
      timers[facts.cache ?? "none"].observe(ms / 1000);
      if (facts.usage?.budgetWaitMs !== undefined) shareWait.observe(facts.usage.budgetWaitMs / 1000);
      if (code === "overloaded") overloaded.inc();
      else if (code === "rate_limited") rateLimited.inc();
      else if (code === "quota_exceeded") quotaExceeded.inc();
    },
    watchInFlight(count: () => number): void {
      inFlight = count;
    },
  };
}
