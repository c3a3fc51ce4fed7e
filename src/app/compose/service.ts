/** @module The composition root: builds the adapters and wires the chat use case into the running service. */
import { type ChatService, createChatService } from "../../domain/chat.ts";
import type { AnswerWriter, ApiKeys, CallCancels, RateLimiter, TranscriptSource } from "../../domain/ports.ts";
import { createTranscriptReader, type TranscriptReader } from "../../domain/transcript-reading.ts";
import { createRedisCallCancels } from "../../adapters/redis/redis-call-cancels.ts";
import type { UsageMeter } from "../../domain/usage/meter.ts";
import type { Config } from "../config/config.ts";
import { composeWriter } from "./llm.ts";
import { checkModel, type ModelCheck } from "./model-check.ts";
import { composeState, type ServiceState } from "./state.ts";
import { createRedisRouteStates } from "../../adapters/redis/redis-route-states.ts";
import { createMemoryRouteStates } from "../../adapters/youtube/route-breaker.ts";
import { composeTranscriptSource, composeYoutubeEgress } from "./youtube.ts";
import { createHttpApp } from "../http/http-app.ts";
import type { RequestNotes } from "../log/request-log.ts";
import type { LiveStreams } from "../stream/live-streams.ts";
import type { ServiceIo } from "./io.ts";

/** The running service's parts, as the entry points need them. */
export interface Service {
  app: ReturnType<typeof createHttpApp>;
  /** Facts for the start-up banner. */
  banner: { backend: string; generatedKey?: string; warnings: string[] };
  /** What the MCP listener (`MCP_PORT`) serves, on the same use cases, keys and limits as the app; none without it. */
  tools?: ToolsCore;
  close(): Promise<void>;
}

/** The MCP listener's parts: both use cases, the keys and rate limits of `POST /chat`, and calls' cancellations. */
export interface ToolsCore {
  chat: ChatService;
  transcripts: TranscriptReader;
  apiKeys: ApiKeys;
  rateLimiter: RateLimiter;
  /** Usage per key and its quotas, as for `POST /chat`; without it nothing is metered. */
  usage?: UsageMeter;
  /** Shared through Redis, so a cancellation sent to another instance reaches the call. */
  cancels: CallCancels;
}

export type { ServiceIo } from "./io.ts";

/**
 * The composition root: the only place adapters are built (through the
 * other files of this folder, one per area).
 *
 * @param config the validated settings
 * @param io the outside world, swappable in tests
 */
export async function composeService(
  config: Config,
  io: ServiceIo & { notes?: RequestNotes; onRedisAvailability?: (available: boolean) => void; streams?: LiveStreams },
): Promise<Service> {
  const { state, writer, chat, model, transcripts } = await composeCore(config, io);
  const app = createHttpApp({
    chat,
    apiKeys: state.chatKeys,
    rateLimiter: state.rateLimiter,
    usage: state.usage,
    maxBodyBytes: config.maxBodyBytes,
    bodyTimeoutMs: config.connection.bodyTimeoutMs,
    logger: io.logger,
    corsOrigins: config.corsOrigins,
    notes: io.notes,
    streams: io.streams && { live: io.streams, ...config.stream },
  });
  const tools: ToolsCore | undefined = config.mcp && {
    chat,
    transcripts,
    apiKeys: state.apiKeys,
    rateLimiter: state.rateLimiter,
    usage: state.usage,
    cancels: createRedisCallCancels({ connection: state.redis }),
  };
  return {
    app,
    banner: { backend: backendLine(writer, model), generatedKey: state.generatedKey, warnings: modelWarnings(model) },
    tools,
    close: () => state.close(),
  };
}

/** What the MCP mode runs on: the use cases, the rate limiter and the usage meter, on the HTTP service's state. */
export interface McpCore {
  chat: ChatService;
  transcripts: TranscriptReader;
  rateLimiter: RateLimiter;
  usage: UsageMeter;
  /** The answer writer's name (the Groq model, or the offline engine), for the start-up line. */
  backend: string;
  close(): Promise<void>;
}

/**
 * The composition root of the MCP mode: the same state, transcript source,
 * writer and use case as {@link composeService}, without the HTTP app.
 */
export async function composeMcp(
  config: Config,
  io: ServiceIo & { onRedisAvailability?: (available: boolean) => void },
): Promise<McpCore> {
  const { state, writer, chat, model, transcripts } = await composeCore(config, io);
  return {
    chat,
    transcripts,
    rateLimiter: state.rateLimiter,
    usage: state.usage,
    backend: backendLine(writer, model),
    close: () => state.close(),
  };
}

async function composeCore(config: Config, io: ServiceIo & { onRedisAvailability?: (available: boolean) => void }) {
  const state = await composeState(config, io);
  const store = state.redis &&
    createRedisRouteStates({ connection: state.redis, fallback: createMemoryRouteStates() });
  const egress = composeYoutubeEgress(config, { store, fetch: io.fetch });
  const transcripts = composeTranscriptSource(config, { ...io, egress }, state);
  const model = config.llmApi.apiKey
    ? await Promise.all(config.llmChain.map((link) => checkModel(link, io.fetch)))
    : undefined;
  for (const check of model ?? []) {
    if (check.warning) io.logger.warn("llm_model_not_listed", { model: check.model, advice: check.warning });
  }
  const writer = composeWriter(config, io, { transcripts, redis: state.redis, models: model, linesOf: state.linesOf });
  const reader = createTranscriptReader({ transcripts, gate: state.gate, requestTimeoutMs: config.requestTimeoutMs });
  return { state, writer, model, chat: composeChat(config, io, { state, writer, transcripts }), transcripts: reader };
}

/** The writer's name; for an LLM, each model of the chain in order, its context window and where that came from. */
function backendLine(writer: AnswerWriter, models: readonly ModelCheck[] | undefined): string {
  if (!models) return writer.name;
  return models.map((model) =>
    `groq:${model.model} (context ${model.contextTokens.toLocaleString("en")} tokens, from ${model.contextSource})`
  ).join(" > ");
}

function modelWarnings(models: readonly ModelCheck[] | undefined): string[] {
  return (models ?? []).flatMap((model) => model.warning ? [`Warning: ${model.warning}`] : []);
}

/**
 * The use case on the configured transcript source, writer and state.
 *
 * @param parts.writer the answer writer (built by the caller, which also names it in the banner)
 * @param parts.transcripts the transcript source, when the caller built it (to share it with the writer)
 */
export function composeChat(
  config: Config,
  io: ServiceIo,
  parts: { state: ServiceState; writer: AnswerWriter; transcripts?: TranscriptSource },
): ChatService {
  const { state, writer } = parts;
  const transcripts = parts.transcripts ?? composeTranscriptSource(config, io, state);
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
