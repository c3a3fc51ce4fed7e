/** @module Builds the YouTube transcript source, and a `fetch` that goes through `HTTPS_PROXY`. */
import { capTranscript } from "../../domain/reading/transcript-cap.ts";
import type { ServiceIo } from "./io.ts";
import type { Cache, SharedFlight, TranscriptSource } from "../../domain/ports.ts";
import type { Transcript, TranscriptQuery } from "../../domain/transcript.ts";
import { sha256Hex } from "../../adapters/keys/key-digest.ts";
import { createCachedTranscriptSource } from "../../adapters/youtube/cached-transcript-source.ts";
import { createInnertubeReader } from "../../adapters/youtube/innertube-transcript-source.ts";
import {
  createMemoryRouteStates,
  createRouteBreaker,
  type RouteBreaker,
  type RouteStateStore,
} from "../../adapters/youtube/route-breaker.ts";
import { createRoutedTranscriptSource, type EgressRoute } from "../../adapters/youtube/routed-transcript-source.ts";
import { withSecondStrategy } from "../../adapters/youtube/second-strategy.ts";
import { createYoutubeTransport, type YoutubeTransport } from "../../adapters/youtube/transport.ts";
import { readWithPackage } from "../../adapters/youtube/youtube-transcript-package-source.ts";
import { createClientHealth } from "../../adapters/youtube/client-health.ts";
import { innertubeClients } from "../../adapters/youtube/innertube-clients.ts";
import type { RedisConnection } from "../../adapters/redis/redis-connection.ts";
import { composeSpeech } from "./speech.ts";
import { isSpeechServiceFailure } from "../../adapters/speech/speech-reader.ts";
import { AppError, isAppError } from "../../domain/errors.ts";
import type { Config } from "../config/config.ts";
import { routeFetch } from "./route-fetch.ts";
import { routeLabel, withSession } from "../config/youtube-routes.ts";

/** The routes to YouTube with their breakers, shared by the transcript source, metrics and readiness. */
export interface YoutubeEgress {
  routes: EgressRoute[];
  breaker: RouteBreaker;
}

/** How the routes to YouTube are built. */
export interface EgressOptions {
  /** Where breaker states live: Redis when configured, else memory. */
  store?: RouteStateStore;
  /** Replaces every route's fetch (tests of the composition, the doctor's). */
  fetch?: typeof fetch;
  /** A fresh id for a proxy URL's `{session}` placeholder, one per try. */
  newSession?: () => string;
}

/**
 * @param config the validated settings
 * @returns the configured routes and their breakers
 */
export function composeYoutubeEgress(config: Config, options: EgressOptions = {}): YoutubeEgress {
  const { baseUrl, timeoutMs } = config.youtube;
  const fetchOverride = options.fetch;
  const newSession = options.newSession ?? (() => crypto.randomUUID().replaceAll("-", ""));
  const routes = config.youtube.routes.map((entry): EgressRoute => {
    const proxy = entry === "direct" ? undefined : entry;
    const shared = fetchOverride
      ? { fetch: fetchOverride, close() {} }
      : routeFetch(proxy && withSession(proxy, newSession()), { fresh: false });
    return {
      label: routeLabel(entry),
      // A digest of the whole URL: two entries may share host:port with other credentials, which never reach Redis.
      key: proxy ? `${routeLabel(entry)}#${sha256Hex(proxy).slice(0, 16)}` : "direct",
      renews: proxy !== undefined,
      open() {
        // Every try on a proxy opens a new connection, so that a rotating gateway gives it a new address
        // (docs/decisions.md).
        // A `{session}` in the URL gets a new id per try: a gateway with sticky sessions then keeps the try's requests
        // on one address.
        const connection = proxy && !fetchOverride
          ? routeFetch(withSession(proxy, newSession()), { fresh: true })
          : { fetch: shared.fetch, close() {} };
        return {
          transport: createYoutubeTransport({ baseUrl, timeoutMs, fetch: connection.fetch }),
          close: connection.close,
        };
      },
    };
  });
  const breaker = createRouteBreaker({
    store: options.store ?? createMemoryRouteStates(),
    failures: config.youtube.routeFailures,
    cooldownMs: config.youtube.routeCooldownMs,
    trialLeaseMs: Math.max(4 * timeoutMs, 5_000),
  });
  return { routes, breaker };
}

/** The shared state a transcript source is built on (a `ServiceState` is one). */
export interface TranscriptState {
  /** Where transcripts are kept. */
  transcriptCache: Cache<Transcript>;
  /** Where identical fetches in flight are shared (this process only when absent). */
  flights?: SharedFlight;
  /** The shared connection, for the speech-to-text budget. */
  redis?: RedisConnection;
}

/**
 * Builds the transcript source: YouTube through InnerTube, the
 * `youtube-transcript` package behind it for answers InnerTube's reader could
 * not parse, both over one egress route per try, all behind the transcript
 * cache and the sharing of fetches in flight.
 *
 * @param config the validated settings
 * @param io the outside world; `fetch` replaces every route's fetch in tests; `egress` the routes (made here when
 *    omitted)
 * @param state the transcript cache, the flights and Redis
 */
export function composeTranscriptSource(
  config: Config,
  io: ServiceIo & { egress?: YoutubeEgress },
  state: TranscriptState,
): TranscriptSource {
  const egress = io.egress ?? composeYoutubeEgress(config, { fetch: io.fetch });
  io.metrics?.watchRoutes(() => egress.routes.map((r) => ({ route: r.label, up: egress.breaker.up(r.key) })));
  const clients = innertubeClients(config.youtube.clients);
  const health = createClientHealth([...clients, ...(config.stt?.audioClients ?? [])]);
  io.metrics?.watchClients(() => health.snapshot());
  const innertube = createInnertubeReader({
    baseUrl: config.youtube.baseUrl,
    clients,
    observe: io.metrics?.youtube,
    health,
    speech: composeSpeech(config, io, { redis: state.redis, health }),
  });
  // The package presents a client the primary path has not seen retired; with none left it is not asked.
  const withPackage = (transport: YoutubeTransport, videoId: string, query: TranscriptQuery) => {
    const client = health.current(clients);
    if (!client) throw new AppError("upstream_error", "Every configured YouTube client is retired");
    return readWithPackage(transport, videoId, query, client);
  };
  const source = createRoutedTranscriptSource({
    routes: egress.routes,
    breaker: egress.breaker,
    blockRetries: config.youtube.blockRetries,
    observe: io.metrics?.youtubeRoute,
    // The speech-to-text service's 429 (met after the audio came) is no block of the route the audio came by.
    isBlock: (error) => isAppError(error, "upstream_blocked") && !isSpeechServiceFailure(error),
    read: (transport, videoId, query) =>
      withSecondStrategy({ fetch: (id, q) => innertube(transport, id, q) }, {
        fetch: (id, q) => withPackage(transport, id, q),
      }).fetch(videoId, query),
  });
  return createCachedTranscriptSource({
    // Cut before the cache: what is cached, shared and read is never past the cap.
    source: { fetch: async (videoId, query) => capTranscript(await source.fetch(videoId, query)) },
    cache: state.transcriptCache,
    ttlMs: config.transcriptCache.ttlMs,
    flights: state.flights,
    observe: io.metrics?.transcriptLookup,
    speech: config.stt !== undefined,
  });
}
