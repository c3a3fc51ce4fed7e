import { createChatService, type ChatService } from "../domain/chat.ts";
import type { AnswerWriter, TranscriptSource } from "../domain/ports.ts";
import type { Config } from "./config.ts";
import { composeWriter } from "./compose-llm.ts";
import { composeState, type ServiceState } from "./compose-state.ts";
import { composeTranscriptSource } from "./compose-youtube.ts";
import { createHttpApp } from "./http-app.ts";
import type { Logger } from "./logger.ts";
import type { ServiceMetrics } from "./metrics/service-metrics.ts";
import type { RequestNotes } from "./request-log.ts";
import type { LiveStreams } from "./live-streams.ts";

/** The running service's parts, as the entry points need them. */
export interface Service {
  app: ReturnType<typeof createHttpApp>;
  /** Facts for the start-up banner. */
  banner: { backend: string; generatedKey?: string };
  close(): Promise<void>;
}

/** The outside world the adapters are built with; `metrics` only when `ADMIN_PORT` is set. */
export interface ServiceIo {
  logger: Logger;
  fetch?: typeof fetch;
  metrics?: ServiceMetrics;
}

/**
 * The composition root: the only place adapters are built (through the
 * compose-* files, one per area).
 *
 * @param config the validated settings
 * @param io the outside world, swappable in tests
 */
export async function composeService(config: Config, io: ServiceIo & { notes?: RequestNotes; onRedisAvailability?: (available: boolean) => void; streams?: LiveStreams }): Promise<Service> {
  const state = await composeState(config, io);
  const transcripts = composeTranscriptSource(config, io, state.transcriptCache, state.flights, state.redis);
  const writer = composeWriter(config, io, transcripts, state.redis);
  const chat = composeChat(config, io, state, writer, transcripts);
  const app = createHttpApp({ chat, apiKeys: state.apiKeys, rateLimiter: state.rateLimiter, maxBodyBytes: config.maxBodyBytes, bodyTimeoutMs: config.connection.bodyTimeoutMs, logger: io.logger, corsOrigins: config.corsOrigins, notes: io.notes, streams: io.streams && { live: io.streams, ...config.stream } });
  return { app, banner: { backend: writer.name, generatedKey: state.generatedKey }, close: () => state.close() };
}

/**
 * The use case on the configured transcript source, writer and state.
 *
 * @param writer the answer writer (built by the caller, which also names it in the banner)
 * @param transcripts the transcript source, when the caller built it (to share it with the writer)
 */
export function composeChat(
  config: Config,
  io: ServiceIo,
  state: ServiceState,
  writer: AnswerWriter,
  transcripts: TranscriptSource = composeTranscriptSource(config, io, state.transcriptCache, state.flights, state.redis),
): ChatService {
  return createChatService({
    onLookup: io.metrics?.answerLookup,
    transcripts,
    writer,
    answers: state.answerCache,
    answerTtlMs: config.answerCache.ttlMs,
    gate: state.gate,
    flights: state.flights,
    requestTimeoutMs: config.requestTimeoutMs,
  });
}
