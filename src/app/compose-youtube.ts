import type { Cache, SharedFlight, TranscriptSource } from "../domain/ports.ts";
import type { Transcript } from "../domain/transcript.ts";
import { createCachedTranscriptSource } from "../adapters/youtube/cached-transcript-source.ts";
import { createInnertubeTranscriptSource } from "../adapters/youtube/innertube-transcript-source.ts";
import { withSecondStrategy } from "../adapters/youtube/second-strategy.ts";
import { createYoutubeTranscriptPackageSource } from "../adapters/youtube/youtube-transcript-package-source.ts";
import type { RedisConnection } from "../adapters/redis/redis-connection.ts";
import { composeSpeech } from "./compose-speech.ts";
import type { Config } from "./config.ts";
import type { Logger } from "./logger.ts";
import type { ServiceMetrics } from "./metrics/service-metrics.ts";

/**
 * Builds the transcript source: YouTube through InnerTube, the
 * `youtube-transcript` package behind it for answers InnerTube's reader could
 * not parse, all behind the transcript cache and the sharing of fetches in flight.
 *
 * @param config the validated settings
 * @param io the outside world; `fetch` replaces the proxy-aware one in tests
 * @param cache where transcripts are kept
 * @param flights where identical fetches in flight are shared (this process only when omitted)
 * @param redis the shared connection, for the speech-to-text budget
 */
export function composeTranscriptSource(config: Config, io: { logger: Logger; fetch?: typeof fetch; metrics?: ServiceMetrics }, cache: Cache<Transcript>, flights?: SharedFlight, redis?: RedisConnection): TranscriptSource {
  const transport = { baseUrl: config.youtube.baseUrl, timeoutMs: config.youtube.timeoutMs, fetch: io.fetch ?? proxiedFetch(config.youtube.proxy) };
  const primary = createInnertubeTranscriptSource({ ...transport, clients: config.youtube.clients, observe: io.metrics?.youtube, speech: composeSpeech(config, io, redis) });
  const source = withSecondStrategy(primary, createYoutubeTranscriptPackageSource(transport));
  return createCachedTranscriptSource({ source, cache, ttlMs: config.transcriptCache.ttlMs, flights, observe: io.metrics?.transcriptLookup, speech: config.stt !== undefined });
}

/**
 * A `fetch` that sends through `proxy` (`HTTPS_PROXY`), for every YouTube
 * request whatever its scheme. The runtime-specific part lives here, not in
 * the adapters: Deno takes an HTTP client made with `Deno.createHttpClient`,
 * Bun takes a `proxy` option on each call.
 *
 * @param proxy the proxy URL, or undefined for direct requests
 * @returns the fetch the YouTube adapters use
 */
export function proxiedFetch(proxy: string | undefined): typeof fetch {
  if (!proxy) return fetch;
  const deno = (globalThis as { Deno?: { createHttpClient(options: { proxy: { url: string } }): unknown } }).Deno;
  if (deno) {
    const client = deno.createHttpClient({ proxy: { url: proxy } });
    return ((input: string | URL | Request, init?: RequestInit) => fetch(input, { ...init, client } as RequestInit)) as typeof fetch;
  }
  return ((input: string | URL | Request, init?: RequestInit) => fetch(input, { ...init, proxy } as RequestInit)) as typeof fetch;
}
