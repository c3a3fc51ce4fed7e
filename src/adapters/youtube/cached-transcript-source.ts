import { Coalescer } from "../../domain/coalesce.ts";
import { AppError } from "../../domain/errors.ts";
import type { Cache, CacheLookup, TranscriptSource } from "../../domain/ports.ts";
import type { Transcript, TranscriptQuery } from "../../domain/transcript.ts";

export interface CachedTranscriptOptions {
  source: TranscriptSource;
  /** Where transcripts are kept (in memory, or shared through Redis). */
  cache: Cache<Transcript>;
  /** How long a transcript is kept; 0 turns caching off (coalescing stays). */
  ttlMs: number;
  /** Told how each lookup was served, failed fetches included (metrics). */
  observe?: (result: CacheLookup) => void;
}

/**
 * Keeps fetched transcripts in `cache` and makes concurrent requests for the
 * same video and languages share one fetch. Failures are not cached.
 *
 * The shared fetch runs without any one caller's signal, so a caller that
 * gives up does not fail the others; each request is still bounded by the
 * source's own per-request time limits, and each caller stops waiting when
 * its own signal aborts.
 *
 * @param options the source to wrap, the cache and the time to live
 * @returns the caching source
 */
export function createCachedTranscriptSource(options: CachedTranscriptOptions): TranscriptSource {
  const inflight = new Coalescer<Transcript>();
  return {
    async fetch(videoId, query) {
      const key = transcriptKey(videoId, query);
      // A cache that fails (Redis down) is a miss, never a failed request.
      const cached = await options.cache.get(key).catch(() => undefined);
      if (cached) {
        options.observe?.("hit");
        return cached;
      }
      options.observe?.(inflight.has(key) ? "shared" : "miss");
      const shared = inflight.run(key, async () => {
        const fresh = await options.source.fetch(videoId, { languages: query.languages, translate: query.translate });
        await options.cache.set(key, fresh, options.ttlMs).catch(() => {});
        return fresh;
      });
      const { value } = await untilAborted(shared, query.signal);
      return value;
    },
  };
}

/**
 * @param videoId the video
 * @param query the languages wanted and whether a translation may be asked for
 * @returns the cache key: equal only for fetches that must give the same transcript
 */
export function transcriptKey(videoId: string, query: Pick<TranscriptQuery, "languages" | "translate">): string {
  return `transcript:v1:${JSON.stringify([videoId, query.languages, query.translate])}`;
}

async function untilAborted<T>(work: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return await work;
  if (signal.aborted) throw stopped(signal);
  let onAbort = (): void => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(stopped(signal));
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([work, aborted]);
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}

function stopped(signal: AbortSignal): AppError {
  return new AppError("upstream_timeout", "The transcript did not arrive in time; try again later", { cause: signal.reason });
}
