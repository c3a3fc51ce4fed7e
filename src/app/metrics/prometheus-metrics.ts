/** @module The service's metrics on prom-client, in a registry of their own. */
import { collectDefaultMetrics, Counter, Gauge, Registry } from "prom-client";
import type { CacheLookup } from "../../domain/ports.ts";
import { createHttpMetrics } from "./http-metrics.ts";
import { batchedCounter, bind } from "./label-children.ts";
import type { ServiceMetrics } from "./service-metrics.ts";
import { createSpeechMetrics } from "./speech-metrics.ts";
import { createUpstreamMetrics } from "./upstream-metrics.ts";
import { createUsageMetrics } from "./usage-metrics.ts";

const LOOKUPS: CacheLookup[] = ["hit", "miss", "shared"];
const REDIS_UP = "vcs_redis_up";

/**
 * The service's metrics on prom-client, in a registry of their own (not the
 * library's global one), with the default process metrics. Every label value
 * comes from a closed list (a status, an error code, a call kind): never a
 * video id, a key or a prompt. Label children are bound once here, so that
 * recording is a lookup and an addition.
 *
 * @param options.models the chain of models, whose LLM call counters start at 0
 * @param options.defaultMetrics whether to add prom-client's process and runtime metrics (on by default)
 * @returns the metrics, ready to wire and to render
 */
export function createPrometheusMetrics(
  options: { defaultMetrics?: boolean; models?: readonly string[] } = {},
): ServiceMetrics {
  const registry = new Registry();
  if (options.defaultMetrics !== false) collectDefaultMetrics({ register: registry });
  const http = createHttpMetrics(registry);
  const upstream = createUpstreamMetrics(registry, options.models);

  const lookups = batchedCounter({
    name: "vcs_cache_lookups_total",
    help:
      "Cache lookups by cache (transcript, answer) and result (hit; shared: joined an equal lookup in flight; miss).",
    labelNames: ["cache", "result"],
    registers: [registry],
  });
  const transcriptLookups = bind(LOOKUPS, (result) => lookups.child("transcript", result));
  const answerLookups = bind(LOOKUPS, (result) => lookups.child("answer", result));
  // Registered with the first report: a service without Redis has no such gauge rather than a 0 that looks like an
  // outage.
  const redisUp = new Gauge({
    name: REDIS_UP,
    help: "Whether Redis is reachable (1) or not (0); absent when REDIS_URL is not set.",
    registers: [],
  });

  const routeTries = new Counter({
    name: "vcs_youtube_route_requests_total",
    help: "Tries of transcript fetches by egress route (direct or host:port) and outcome (ok, blocked, other).",
    labelNames: ["route", "outcome"],
    registers: [registry],
  });
  let routes: () => { route: string; up: boolean }[] = () => [];
  new Gauge({
    name: "vcs_youtube_route_up",
    help: "Whether an egress route to YouTube is usable (1) or skipped by its open breaker (0).",
    labelNames: ["route"],
    registers: [registry],
    collect() {
      this.reset();
      const up = new Map<string, boolean>();
      for (const r of routes()) up.set(r.route, (up.get(r.route) ?? false) || r.up);
      for (const [route, value] of up) this.set({ route }, value ? 1 : 0);
    },
  });

  let clients: () => { client: string; version: string; up: boolean }[] = () => [];
  new Gauge({
    name: "vcs_youtube_client_up",
    help: "Whether a configured InnerTube client was last served (1) or refused by YouTube as retired (0).",
    labelNames: ["client", "version"],
    registers: [registry],
    collect() {
      this.reset();
      for (const c of clients()) this.set({ client: c.client, version: c.version }, c.up ? 1 : 0);
    },
  });

  return {
    request: http.request,
    youtubeRoute: (route, outcome) => routeTries.inc({ route, outcome }),
    watchRoutes: (read) => (routes = read),
    watchClients: (read) => (clients = read),
    watchInFlight: http.watchInFlight,
    ...upstream,
    speech: createSpeechMetrics(registry),
    usage: createUsageMetrics(registry),
    transcriptLookup: (result) => transcriptLookups[result].inc(),
    answerLookup: (result) => answerLookups[result].inc(),
    redisAvailability(available) {
      if (!registry.getSingleMetric(REDIS_UP)) registry.registerMetric(redisUp);
      redisUp.set(available ? 1 : 0);
    },
    render: () => registry.metrics(),
    contentType: registry.contentType,
  };
}
