/** @module Caches fetched transcripts and shares identical fetches in flight. */
import { createLocalFlight } from "../../domain/coalesce.ts";
import { AppError } from "../../domain/errors.ts";
import type { Cache, CacheLookup, SharedFlight, TranscriptSource } from "../../domain/ports.ts";
import type { Transcript, TranscriptQuery } from "../../domain/transcript.ts";

export interface CachedTranscriptOptions {
  source: TranscriptSource;
  /** Where transcripts are kept (in memory, or shared through Redis). */
  cache: Cache<Transcript>;
  /** How long a transcript is kept; 0 turns caching off (coalescing stays). */
  ttlMs: number;
  /** Where identical fetches in flight are shared (across instances with Redis); this process only by default. */
  flights?: SharedFlight;
  /** The cache calls this with how it served each lookup, failed fetches included (metrics). */
  observe?: (result: CacheLookup) => void;
  /**
   * Whether transcripts may come from speech (`STT=groq`): one is the same in every language
   * asked, so it is also kept under the video alone and serves the other languages' fetches.
   */
  speech?: boolean;
}

/**
 * Keeps fetched transcripts in `cache` and makes concurrent requests for the
 * same video and languages share one fetch (through `flights`, across
 * instances too). Failures reach every waiting caller but are not cached.
 *
 * The shared fetch runs without any one caller's signal, so a caller that
 * gives up does not fail the others; it stops (speech-to-text included) once
 * none of its callers waits any more: no upstream work runs for nobody. Each
 * request is still bounded by the source's own per-request time limits, and
 * each caller stops waiting when its own signal aborts.
 *
 * @param options the source to wrap, the cache and the time to live
 * @returns the caching source
 */
export function createCachedTranscriptSource(options: CachedTranscriptOptions): TranscriptSource {
  const flights = options.flights ?? createLocalFlight();
  /** Fetches and caches; looks again first, as another instance may have just finished. */
  const fetchOnce = async (
    key: string,
    videoId: string,
    query: TranscriptQuery,
    signal: AbortSignal,
  ): Promise<Transcript> => {
    const finished = await options.cache.get(key).catch(() => undefined);
    if (finished) return finished;
    const heard = options.speech ? await options.cache.get(speechKey(videoId)).catch(() => undefined) : undefined;
    if (heard) return heard;
    // The cache reports the work to the owner's observer; callers sharing the fetch or served from the cache made none.
    const { languages, translate, rereading, deadline, observer, onTranscribing, beforeSpeech, onAudioTranscribed } =
      query;
    const fresh = await options.source.fetch(videoId, {
      languages,
      translate,
      rereading,
      signal,
      deadline,
      observer,
      onTranscribing,
      beforeSpeech,
      onAudioTranscribed,
    });
    await options.cache.set(key, fresh, options.ttlMs).catch(() => {});
    if (fresh.speech) await options.cache.set(speechKey(videoId), fresh, options.ttlMs).catch(() => {});
    return fresh;
  };
  return {
    async fetch(videoId, query) {
      const key = transcriptKey(videoId, query);
      // A cache that fails (Redis down) is a miss, never a failed request.
      const cached = await options.cache.get(key).catch(() => undefined);
      if (cached) {
        options.observe?.("hit");
        return cached;
      }
      const signal = query.signal ? waitLimit(query.signal) : undefined;
      try {
        const { value, role } = await flights.run(key, (unwanted) => fetchOnce(key, videoId, query, unwanted), {
          signal: signal?.signal,
        });
        options.observe?.(role === "owner" ? "miss" : "shared");
        return value;
      } catch (error) {
        options.observe?.("miss");
        throw error;
      } finally {
        signal?.clear();
      }
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

/** The key of a video's speech transcript, whatever the languages asked. */
function speechKey(videoId: string): string {
  return `transcript:v1:speech:${JSON.stringify(videoId)}`;
}

/** The caller's signal, failing its wait with this source's own message. */
function waitLimit(signal: AbortSignal): { signal: AbortSignal; clear(): void } {
  const controller = new AbortController();
  const onAbort = () => controller.abort(stopped(signal));
  if (signal.aborted) onAbort();
  else signal.addEventListener("abort", onAbort, { once: true });
  return { signal: controller.signal, clear: () => signal.removeEventListener("abort", onAbort) };
}

function stopped(signal: AbortSignal): AppError {
  return new AppError("upstream_timeout", "The transcript did not arrive in time; try again later", {
    cause: signal.reason,
  });
}
