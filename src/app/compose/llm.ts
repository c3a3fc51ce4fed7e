/** @module Builds the answer writer (the LLM endpoint when a key is set, else the offline engine) and its budget. */
import type { ServiceIo } from "./io.ts";
import type { AnswerWriter, TranscriptSource } from "../../domain/ports.ts";
import { createMemoryBudgetStore } from "../../adapters/llm/budget/budget-store.ts";
import { type BudgetObserver, createLlmBudget, type LlmBudget } from "../../adapters/llm/budget/llm-budget.ts";
import { createHeaderlessRule, PROVISIONAL_LIMITS } from "../../adapters/llm/budget/headerless.ts";
import { createRedisBudgetStore } from "../../adapters/llm/budget/redis-budget-store.ts";
import { budgetKey } from "../../adapters/llm/budget/budget-key.ts";
import { sha256Hex } from "../../adapters/keys/key-digest.ts";
import { createGroqAnswerWriter } from "../../adapters/llm/groq-answer-writer.ts";
import { MODEL_SETTINGS } from "../../adapters/llm/models/model-unavailable.ts";
import { createOfflineAnswerWriter } from "../../adapters/offline/offline-answer-writer.ts";
import type { RedisConnection } from "../../adapters/redis/redis-connection.ts";
import type { Config } from "../config/config.ts";
import { llmBudgetObserver } from "../metrics/service-metrics.ts";
import type { ModelCheck } from "./model-check.ts";

/** What the answer writer is built on, besides the configuration and the outside world. */
export interface WriterParts {
  /** The cached transcript source, through which the offline engine reads a second track. */
  transcripts?: TranscriptSource;
  /** The shared connection, when the LLM budget is shared by instances. */
  redis?: RedisConnection;
  /** What start-up learnt of the model (its context window). */
  model?: ModelCheck;
}

/**
 * Builds the answer writer: the LLM endpoint when a key is set, else the offline engine.
 *
 * @param io.metrics when set, each LLM attempt and the token budget's state are measured
 */
export function composeWriter(config: Config, io: ServiceIo, parts: WriterParts = {}): AnswerWriter {
  const { transcripts, redis, model } = parts;
  const api = config.llmApi;
  if (!api.apiKey) return createOfflineAnswerWriter({ readings: transcripts });
  return createGroqAnswerWriter({
    apiKey: api.apiKey,
    baseUrl: api.baseUrl,
    model: api.model,
    dialect: api.dialect,
    reasoningEffort: api.reasoningEffort,
    modelSetting: MODEL_SETTINGS,
    timeoutMs: config.llm.timeoutMs,
    maxRetries: config.llm.maxRetries,
    retryBudgetMs: config.llm.retryBudgetMs,
    inputTokenBudget: config.llm.inputTokenBudget,
    maxOutputTokens: config.llm.maxOutputTokens,
    contextTokens: model?.contextTokens ?? config.llm.contextTokens,
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
  const figures = config.llm;
  const limits = {
    tokensPerWindow: figures.tokensPerMinute,
    requestsPerWindow: figures.requestsPerMinute,
    tokensPerDay: figures.tokensPerDay,
    requestsPerDay: figures.requestsPerDay,
  };
  const memory = createMemoryBudgetStore({ limits, windowMs: figures.budgetWindowMs });
  const store = redis
    ? createRedisBudgetStore({
      connection: redis,
      key: budgetKey({
        endpoint: config.llmApi.baseUrl,
        model: config.llmApi.model,
        apiKey: config.llmApi.apiKey ?? "",
      }, sha256Hex),
      limits,
      windowMs: figures.budgetWindowMs,
      fallback: memory,
    })
    : memory;
  const headerless = createHeaderlessRule({
    // A refusal stating no figures puts back the limits assumed at the start (a private endpoint's: provisional ones).
    assumed: figures.privateUnpaced ? PROVISIONAL_LIMITS : limits,
    operatorStated: figures.limitsStated,
    answersToUnpace: figures.privateUnpaced ? 1 : undefined,
  });
  return createLlmBudget({ store, observer, headerless });
}
