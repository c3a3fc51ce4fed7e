import type { AnswerWriter, TranscriptSource } from "../domain/ports.ts";
import { createGroqAnswerWriter } from "../adapters/llm/groq-answer-writer.ts";
import { createOfflineAnswerWriter } from "../adapters/offline/offline-answer-writer.ts";
import type { Config } from "./config.ts";
import type { Logger } from "./logger.ts";

/**
 * Builds the answer writer: Groq when a key is set, else the offline engine.
 *
 * @param transcripts the cached transcript source, through which the offline engine reads a second track
 */
export function composeWriter(config: Config, io: { logger: Logger; fetch?: typeof fetch }, transcripts?: TranscriptSource): AnswerWriter {
  if (!config.groq.apiKey) return createOfflineAnswerWriter({ readings: transcripts });
  return createGroqAnswerWriter({
    apiKey: config.groq.apiKey,
    baseUrl: config.groq.baseUrl,
    model: config.groq.model,
    timeoutMs: config.llm.timeoutMs,
    maxRetries: config.llm.maxRetries,
    retryBudgetMs: config.llm.retryBudgetMs,
    inputTokenBudget: config.llm.inputTokenBudget,
    maxOutputTokens: config.llm.maxOutputTokens,
    concurrency: config.llm.concurrency,
    fetch: io.fetch,
  });
}
