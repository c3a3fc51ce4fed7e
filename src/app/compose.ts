import { createChatService } from "../domain/chat.ts";
import type { GeneratedAnswer } from "../domain/chat.ts";
import type { AnswerWriter } from "../domain/ports.ts";
import { createStaticApiKeys, generateApiKey } from "../adapters/env-api-keys.ts";
import { createGroqAnswerWriter } from "../adapters/groq-answer-writer.ts";
import { createInnertubeTranscriptSource } from "../adapters/innertube-transcript-source.ts";
import { createMemoryCache } from "../adapters/memory-cache.ts";
import { createMemoryWorkGate } from "../adapters/memory-work-gate.ts";
import { createOfflineAnswerWriter } from "../adapters/offline-answer-writer.ts";
import { unlimitedRateLimiter } from "../adapters/unlimited-rate-limiter.ts";
import type { Config } from "./config.ts";
import { createHttpApp } from "./http-app.ts";
import type { Logger } from "./logger.ts";

/** The running service's parts, as the entry points need them. */
export interface Service {
  app: ReturnType<typeof createHttpApp>;
  /** Facts for the start-up banner. */
  banner: { backend: string; generatedKey?: string };
  close(): Promise<void>;
}

/**
 * The composition root: the only place adapters are built.
 *
 * @param config the validated settings
 * @param io the outside world, swappable in tests
 */
export async function composeService(config: Config, io: { logger: Logger; fetch?: typeof fetch }): Promise<Service> {
  const generatedKey = config.apiKeys.length === 0 ? generateApiKey() : undefined;
  const apiKeys = await createStaticApiKeys(generatedKey ? [generatedKey] : config.apiKeys);
  const writer = createWriter(config, io.fetch);
  const chat = createChatService({
    transcripts: createInnertubeTranscriptSource({
      baseUrl: config.youtube.baseUrl,
      clients: config.youtube.clients,
      timeoutMs: config.youtube.timeoutMs,
      fetch: io.fetch,
    }),
    writer,
    answers: createMemoryCache<GeneratedAnswer>({ maxEntries: config.answerCache.maxEntries }),
    answerTtlMs: config.answerCache.ttlMs,
    gate: createMemoryWorkGate({ maxInFlight: config.maxInFlight }),
    requestTimeoutMs: config.requestTimeoutMs,
  });
  const app = createHttpApp({ chat, apiKeys, rateLimiter: unlimitedRateLimiter, maxBodyBytes: config.maxBodyBytes, logger: io.logger });
  return { app, banner: { backend: writer.name, generatedKey }, close: async () => {} };
}

function createWriter(config: Config, fetcher?: typeof fetch): AnswerWriter {
  if (!config.groq.apiKey) return createOfflineAnswerWriter();
  return createGroqAnswerWriter({
    apiKey: config.groq.apiKey,
    baseUrl: config.groq.baseUrl,
    model: config.groq.model,
    timeoutMs: config.llm.timeoutMs,
    maxRetries: config.llm.maxRetries,
    maxOutputTokens: config.llm.maxOutputTokens,
    fetch: fetcher,
  });
}
