import type { AnswerWriter } from "../domain/ports.ts";
import { createGroqAnswerWriter } from "../adapters/llm/groq-answer-writer.ts";
import { createOfflineAnswerWriter } from "../adapters/offline/offline-answer-writer.ts";
import type { Config } from "./config.ts";
import type { Logger } from "./logger.ts";
import type { ServiceMetrics } from "./metrics/service-metrics.ts";

/** Builds the answer writer: Groq when a key is set, else the offline engine. */
/**
 * @param io.metrics when set, each LLM attempt is counted (its `llmBudget` is for the token budget's gauges)
 */
export function composeWriter(config: Config, io: { logger: Logger; fetch?: typeof fetch; metrics?: ServiceMetrics }): AnswerWriter {
  if (!config.groq.apiKey) return createOfflineAnswerWriter();
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
    observe: io.metrics?.llm,
  });
}
