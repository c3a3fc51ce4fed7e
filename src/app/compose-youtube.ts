import type { Cache, TranscriptSource } from "../domain/ports.ts";
import type { Transcript } from "../domain/transcript.ts";
import { createInnertubeTranscriptSource } from "../adapters/innertube-transcript-source.ts";
import type { Config } from "./config.ts";
import type { Logger } from "./logger.ts";

/** Builds the transcript source: YouTube through InnerTube. */
export function composeTranscriptSource(config: Config, io: { logger: Logger; fetch?: typeof fetch }, _cache: Cache<Transcript>): TranscriptSource {
  return createInnertubeTranscriptSource({
    baseUrl: config.youtube.baseUrl,
    clients: config.youtube.clients,
    timeoutMs: config.youtube.timeoutMs,
    fetch: io.fetch,
  });
}
