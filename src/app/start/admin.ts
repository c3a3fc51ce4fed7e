/** @module Starts the admin listener (`ADMIN_PORT`) before the service is composed. */
import type { Config } from "../config/config.ts";
import { createAdminHandler } from "../metrics/admin-app.ts";
import { createReadiness, type Readiness } from "../metrics/readiness.ts";
import type { ServiceMetrics } from "../metrics/service-metrics.ts";
import type { Listener, ServeOptions } from "./shutdown.ts";

/** The admin listener and what it reports on, once it listens. */
export interface Admin {
  metrics: ServiceMetrics;
  readiness: Readiness;
  listener: Listener;
  /** The admin URL, for the banner. */
  url: string;
}

/**
 * Starts the admin listener (`ADMIN_PORT`), before the service is composed,
 * so liveness answers and readiness says `starting` while start-up waits
 * (for Redis, say). prom-client is loaded here, only when there is an admin
 * port: a service without one neither loads nor feeds it.
 *
 * @param admin the admin settings
 * @param options.redisConfigured whether `REDIS_URL` is set (readiness then watches it)
 * @param options.keysInRedisOnly whether Redis holds every key (`REDIS_URL` without `API_KEYS`)
 * @param options.serve the runtime's serve
 * @throws what the runtime's serve throws (a port in use)
 */
export async function startAdmin(
  admin: NonNullable<Config["admin"]>,
  options: {
    redisConfigured: boolean;
    keysInRedisOnly?: boolean;
    serve: (options: ServeOptions) => Listener;
    /** The chain of models, whose LLM call counters start at 0. */
    models?: readonly string[];
  },
): Promise<Admin> {
  const { createPrometheusMetrics } = await import("../metrics/prometheus-metrics.ts");
  const metrics = createPrometheusMetrics({ models: options.models });
  const readiness = createReadiness({
    redisConfigured: options.redisConfigured,
    redisGraceMs: admin.redisGraceMs,
    keysInRedisOnly: options.keysInRedisOnly,
  });
  if (options.redisConfigured) metrics.redisAvailability(false);
  // No request body is ever read on the admin port: the smallest limit a runtime takes.
  const listener = await options.serve({
    port: admin.port,
    host: admin.host,
    fetch: createAdminHandler({ readiness, metrics }),
    maxBodyBytes: 1024,
  });
  const shown = admin.host.includes(":") ? `[${admin.host}]` : admin.host === "0.0.0.0" ? "localhost" : admin.host;
  return { metrics, readiness, listener, url: `http://${shown}:${listener.port}` };
}
