/** @module The usage metrics: answered requests and the video length they were charged, without a key label. */
import type { Registry } from "prom-client";
import type { UsageObserver } from "../../adapters/usage/metered-request.ts";
import type { CacheLookup } from "../../domain/ports.ts";
import { batchedCounter, bind } from "./label-children.ts";

const LOOKUPS: CacheLookup[] = ["hit", "miss", "shared"];

/**
 * What the usage ledger counts, summed over every key (a key label's cardinality would be unbounded: the
 * per-key figures are in `keys usage`).
 *
 * @param registry where the metrics are registered
 * @returns the observer the usage meter tells of each answer it charges
 */
export function createUsageMetrics(registry: Registry): UsageObserver {
  const registers = [registry];
  const requests = batchedCounter({
    name: "vcs_usage_answered_requests_total",
    help: "Answered requests charged to their key's usage (streams when done is sent), by answer-cache result.",
    labelNames: ["cache"],
    registers,
  });
  // In seconds, Prometheus's base unit: the charged minutes times 60 (divide by 60 for the minutes keys are charged).
  const seconds = batchedCounter({
    name: "vcs_usage_video_seconds_total",
    help:
      "Video length charged to keys, in seconds: each answer's video_duration in whole minutes (at least 1) times " +
      "60, by answer-cache result.",
    labelNames: ["cache"],
    registers,
  });
  const counted = bind(LOOKUPS, (cache) => ({ requests: requests.child(cache), seconds: seconds.child(cache) }));
  return {
    answered(minutes, cache) {
      counted[cache].requests.inc();
      counted[cache].seconds.inc(minutes * 60);
    },
  };
}
