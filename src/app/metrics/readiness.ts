/** @module The readiness state behind `/readyz`: starting, shutting down or Redis gone too long. */
/** Why the service is not ready: still starting, stopping after a signal, or Redis gone too long. */
export type NotReadyReason = "starting" | "shutting_down" | "redis_unreachable" | "usage_store_unavailable";

export type ReadinessVerdict = { ready: true } | { ready: false; reason: NotReadyReason; message: string };

/**
 * Whether the service should be sent traffic, for `GET /readyz`. Not ready
 * while starting, from the first stop signal on (requests in flight still
 * finish), and while a configured Redis has been unreachable for longer than
 * `redisGraceMs` (a short blip does not take every instance out at once).
 *
 * @param options.redisConfigured whether `REDIS_URL` is set; Redis counts as unreachable until it first answers
 * @param options.redisGraceMs how long Redis may be unreachable before the service says it is not ready
 * @param options.keysInRedisOnly Redis holds every key (no `API_KEYS`): not ready at all until it first answers
 * @param options.now a monotonic clock in milliseconds
 */
export function createReadiness(
  options: { redisConfigured: boolean; redisGraceMs: number; keysInRedisOnly?: boolean; now?: () => number },
) {
  const now = options.now ?? (() => performance.now());
  let phase: "starting" | "serving" | "stopping" = "starting";
  let redisDownSince = options.redisConfigured ? now() : undefined;
  let usageDownSince: number | undefined;
  // Redis as the only store of keys, not answered yet: no caller can be checked, so no grace.
  let keysUnknown = options.keysInRedisOnly === true;
  return {
    /** The main port is listening. */
    serving(): void {
      if (phase === "starting") phase = "serving";
    },
    /** A stop signal came: not ready from now on, for good. */
    stopping(): void {
      phase = "stopping";
    },
    /**
     * The usage store took the holds and counts of callers with quotas again (true), or failed them (false): past
     * the same grace as Redis's, quotas would be enforced on what this instance alone knows, so it is not ready.
     */
    usage(available: boolean): void {
      usageDownSince = available ? undefined : (usageDownSince ?? now());
    },
    /** Redis became reachable (true) or unreachable (false). */
    redis(available: boolean): void {
      redisDownSince = available ? undefined : (redisDownSince ?? now());
      if (available) keysUnknown = false;
    },
    check(): ReadinessVerdict {
      if (phase === "starting") return { ready: false, reason: "starting", message: "The service is starting" };
      if (phase === "stopping") {
        return {
          ready: false,
          reason: "shutting_down",
          message: "The service is shutting down; requests in flight are finishing",
        };
      }
      if (keysUnknown) {
        return {
          ready: false,
          reason: "redis_unreachable",
          message: "Redis, where the API keys are, has not answered since start-up",
        };
      }
      if (redisDownSince !== undefined && now() - redisDownSince > options.redisGraceMs) {
        const seconds = Math.round((now() - redisDownSince) / 1000);
        return { ready: false, reason: "redis_unreachable", message: `Redis has been unreachable for ${seconds} s` };
      }
      if (usageDownSince !== undefined && now() - usageDownSince > options.redisGraceMs) {
        const seconds = Math.round((now() - usageDownSince) / 1000);
        return {
          ready: false,
          reason: "usage_store_unavailable",
          message: `The usage store has failed the holds or counts of keys with quotas for ${seconds} s`,
        };
      }
      return { ready: true };
    },
  };
}

export type Readiness = ReturnType<typeof createReadiness>;
