/** @module Builds the usage meter on its store: Redis when configured, else an SQLite file beside `KEYS_FILE`. */
import { dirname, join } from "node:path";
import type { KeyIdentity } from "../../domain/ports.ts";
import type { Quota } from "../../domain/usage/quota.ts";
import type { UsageMeter, UsageStore } from "../../domain/usage/meter.ts";
import type { RedisConnection } from "../../adapters/redis/redis-connection.ts";
import { createRedisUsageStore } from "../../adapters/usage/redis-usage-store.ts";
import { createSqliteUsageStore } from "../../adapters/usage/sqlite-usage-store.ts";
import { createUsageMeter } from "../../adapters/usage/usage-meter.ts";
import type { Config } from "../config/config.ts";
import { quotasOf } from "../config/quota-spec.ts";
import type { Logger } from "../log/logger.ts";
import type { ServiceMetrics } from "../metrics/service-metrics.ts";

/** The usage file without Redis: `usage.sqlite` in the folder of `KEYS_FILE`. */
export function usageFile(config: Pick<Config, "keysFile">): string {
  return join(dirname(config.keysFile), "usage.sqlite");
}

/**
 * The store the configuration names: Redis (shared by every instance) when `REDIS_URL` is set, else the SQLite
 * file beside the keys file (shared by every process on the machine).
 */
export function composeUsageStore(config: Pick<Config, "keysFile">, redis?: RedisConnection): UsageStore {
  return redis ? createRedisUsageStore({ connection: redis }) : createSqliteUsageStore({ path: usageFile(config) });
}

/**
 * @param config the validated settings (`QUOTA`, `KEYS_FILE`, `REQUEST_TIMEOUT_MS`, `USAGE_HOLD_GRACE_MS`)
 * @param io the logger (store trouble), the metrics (answers charged)
 * @param redis the shared connection, when usage lives in Redis
 */
export function composeUsage(
  config: Config,
  io: { logger: Logger; metrics?: ServiceMetrics; onUsageAvailability?: (available: boolean) => void },
  redis?: RedisConnection,
): UsageMeter {
  return createUsageMeter({
    store: composeUsageStore(config, redis),
    quotasFor: quotasFrom(config.quota, io.logger),
    defaultTimeoutMs: config.requestTimeoutMs,
    holdGraceMs: config.usageHoldGraceMs,
    log: io.logger,
    observe: io.metrics?.usage,
    // Callers with quotas metered on what this instance alone knows: not ready, rather than fail open silently.
    quotasInUse: config.quota.length > 0,
    onAvailability: io.onUsageAvailability,
  });
}

/**
 * @returns each caller's quotas: its own, else `QUOTA`. A stored setting that does not parse falls back to the
 *   default (logged once per key).
 */
export function quotasFrom(fallback: readonly Quota[], logger: Logger): (caller: KeyIdentity) => readonly Quota[] {
  const parsed = new Map<string, readonly Quota[] | undefined>();
  return (caller) => {
    if (caller.quota === undefined) return fallback;
    if (!parsed.has(caller.quota)) {
      const quotas = quotasOf(caller.quota, fallback);
      if (!quotas) logger.warn("key_quota_invalid", { key_id: caller.id, quota: caller.quota });
      parsed.set(caller.quota, quotas);
    }
    return parsed.get(caller.quota) ?? fallback;
  };
}
