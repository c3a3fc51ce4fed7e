/** @module Builds the answer writer (Groq when a key is set, else the offline engine) and its token budget. */
import type { ServiceIo } from "./io.ts";
import type { AnswerWriter, TranscriptSource } from "../../domain/ports.ts";
import { createMemoryBudgetStore } from "../../adapters/llm/budget/budget-store.ts";
import { type BudgetObserver, createLlmBudget, type LlmBudget } from "../../adapters/llm/budget/llm-budget.ts";
import { createHeaderlessRule } from "../../adapters/llm/budget/headerless.ts";
import { createRedisBudgetStore } from "../../adapters/llm/budget/redis-budget-store.ts";
import { budgetKey } from "../../adapters/llm/budget/budget-key.ts";
import { sha256Hex } from "../../adapters/keys/key-digest.ts";
import { createGroqAnswerWriter } from "../../adapters/llm/groq-answer-writer.ts";
import { createOfflineAnswerWriter } from "../../adapters/offline/offline-answer-writer.ts";
import type { RedisConnection } from "../../adapters/redis/redis-connection.ts";
import type { Config } from "../config/config.ts";
import { llmBudgetObserver } from "../metrics/service-metrics.ts";

/**
 * Builds the answer writer: Groq when a key is set, else the offline engine.
 *
 * @param io.metrics when set, each LLM attempt and the token budget's state are measured
 * @param transcripts the cached transcript source, through which the offline engine reads a second track
 * @param redis the shared connection, when the LLM budget is shared by instances
 */
export function composeWriter(
  config: Config,
  io: ServiceIo,
  transcripts?: TranscriptSource,
  redis?: RedisConnection,
): AnswerWriter {
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
    contextTokens: config.llm.contextTokens,
    concurrency: config.llm.concurrency,
    // Without metrics, no observer: telling it the level would cost a look at the budget per call.
    budget: composeLlmBudget(config, io.metrics ? llmBudgetObserver(io.metrics) : undefined, redis),
    fetch: io.fetch,
    observe: io.metrics?.llm,
  });
}

/**
 * The provider's budget for the configured endpoint, model and key: in
 * Redis when it is shared (the provider counts the organisation, not the
 * process), with this process's own budget while Redis is unreachable.
 */
function composeLlmBudget(config: Config, observer: BudgetObserver | undefined, redis?: RedisConnection): LlmBudget {
  const limits = { tokensPerWindow: config.llm.tokensPerMinute, requestsPerWindow: config.llm.requestsPerMinute };
  const memory = createMemoryBudgetStore({ limits, windowMs: config.llm.budgetWindowMs });
  const store = redis
    ? createRedisBudgetStore({
      connection: redis,
      key: budgetKey({
        endpoint: config.groq.baseUrl ?? "https://api.groq.com",
        model: config.groq.model,
        apiKey: config.groq.apiKey ?? "",
      }, sha256Hex),
      limits,
      windowMs: config.llm.budgetWindowMs,
      fallback: memory,
    })
    : memory;
  const headerless = createHeaderlessRule({ assumed: limits, operatorStated: config.llm.limitsStated });
  return createLlmBudget({ store, observer, headerless });
}
