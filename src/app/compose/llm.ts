/** @module Builds the answer writer (the LLM endpoint when a key is set, else the offline engine) and its budget. */
import type { ServiceIo } from "./io.ts";
import type { AnswerWriter, TranscriptSource } from "../../domain/ports.ts";
import { type BudgetStore, createMemoryBudgetStore } from "../../adapters/llm/budget/budget-store.ts";
import { dayWaitOn } from "../../adapters/llm/budget/fair-share.ts";
import { type BudgetObserver, createLlmBudget, type LlmBudget } from "../../adapters/llm/budget/llm-budget.ts";
import { createHeaderlessRule, PROVISIONAL_LIMITS } from "../../adapters/llm/budget/headerless.ts";
import { createRedisBudgetStore } from "../../adapters/llm/budget/redis-budget-store.ts";
import { budgetKey } from "../../adapters/llm/budget/budget-key.ts";
import { sha256Hex } from "../../adapters/keys/key-digest.ts";
import { createOpenAiCompatibleAnswerWriter } from "../../adapters/llm/openai-compatible-answer-writer.ts";
import { type ChainLink, createChainAnswerWriter } from "../../adapters/llm/chain-answer-writer.ts";
import { createOfflineAnswerWriter } from "../../adapters/offline/offline-answer-writer.ts";
import type { RedisConnection } from "../../adapters/redis/redis-connection.ts";
import type { Config } from "../config/config.ts";
import type { LlmLink } from "../config/llm-chain.ts";
import { MINUTE_MS } from "../config/test-settings.ts";
import { llmBudgetObserver } from "../metrics/service-metrics.ts";
import type { ModelCheck } from "./model-check.ts";
import type { LinesKeeper } from "../../domain/reading/transcript-lines.ts";

/** What the answer writer is built on, besides the configuration and the outside world. */
export interface WriterParts {
  /** The cached transcript source, through which the offline engine reads a second track. */
  transcripts?: TranscriptSource;
  /** The shared connection, when the LLM budget is shared by instances. */
  redis?: RedisConnection;
  /** What start-up learnt of each model of the chain (its context window), in the chain's order. */
  models?: readonly ModelCheck[];
  /** Where each transcript's lines and scores are kept, one keeper for every model of the chain. */
  linesOf?: LinesKeeper;
}

/**
 * Builds the answer writer: the LLM endpoint when a key is set (one writer per model of the chain, each on its own
 * budget, tried in order), else the offline engine.
 *
 * @param io.metrics when set, each LLM attempt and the token budget's state are measured
 */
export function composeWriter(config: Config, io: ServiceIo, parts: WriterParts = {}): AnswerWriter {
  const { transcripts, redis, models = [], linesOf } = parts;
  if (!config.llmApi.apiKey) return createOfflineAnswerWriter({ readings: transcripts });
  const chained = config.llmChain.length > 1;
  // The checks are in the chain's order (the same model id may be on two endpoints).
  const links = config.llmChain.map((link, i) =>
    composeModelLink(config, io, link, { redis, check: models[i], chained, transcripts, linesOf })
  );
  return createChainAnswerWriter(links, {
    retired: (model, error) => io.logger.warn("llm_model_retired", { model, advice: error.message }),
  });
}

/**
 * One model of the chain: its writer (its endpoint, reasoning, context window and own budget), and how long until its
 * budget may send anything (a 429's block, or its day spent).
 */
function composeModelLink(
  config: Config,
  io: ServiceIo,
  link: LlmLink,
  parts: {
    redis?: RedisConnection;
    check?: ModelCheck;
    chained: boolean;
    transcripts?: TranscriptSource;
    linesOf?: LinesKeeper;
  },
): ChainLink {
  // Without metrics, no observer: telling it the level would cost a look at the budget per call.
  const { budget, store } = composeLlmBudget(link, {
    windowMs: io.llmBudgetWindowMs ?? MINUTE_MS,
    observer: io.metrics ? llmBudgetObserver(io.metrics) : undefined,
    redis: parts.redis,
  });
  const writer = createOpenAiCompatibleAnswerWriter({
    apiKey: link.apiKey,
    baseUrl: link.baseUrl,
    model: link.model,
    dialect: link.dialect,
    reasoningEffort: config.llmApi.reasoningEffort,
    modelSetting: link.setting,
    timeoutMs: config.llm.timeoutMs,
    maxRetries: config.llm.maxRetries,
    retryBudgetMs: config.llm.retryBudgetMs,
    inputTokenBudget: config.llm.inputTokenBudget,
    maxOutputTokens: config.llm.maxOutputTokens,
    contextTokens: parts.check?.contextTokens ?? link.figures.contextTokens,
    concurrency: config.llm.concurrency,
    budget,
    fetch: io.fetch,
    observe: io.metrics?.llm,
    // In a chain, a model's spent day is not waited out: the next model serves at once.
    waitsOutDay: !parts.chained,
    readings: parts.transcripts,
    linesOf: parts.linesOf,
  });
  const waitMs = async () => {
    const view = await store.peek();
    return Math.max(view.blockedMs, dayWaitOn(view, 0));
  };
  return { model: link.model, writer, waitMs };
}

/**
 * The provider's budget for one model: its endpoint, model and key. In Redis when it is shared (the provider counts
 * the organisation, not the process), with this process's own budget while Redis is unreachable.
 */
function composeLlmBudget(
  link: LlmLink,
  { windowMs, observer, redis }: { windowMs: number; observer?: BudgetObserver; redis?: RedisConnection },
): { budget: LlmBudget; store: BudgetStore } {
  const figures = link.figures;
  const limits = {
    tokensPerWindow: figures.tokensPerMinute,
    requestsPerWindow: figures.requestsPerMinute,
    tokensPerDay: figures.tokensPerDay,
    requestsPerDay: figures.requestsPerDay,
  };
  const memory = createMemoryBudgetStore({ limits, windowMs });
  const store = redis
    ? createRedisBudgetStore({
      connection: redis,
      key: budgetKey({ endpoint: link.baseUrl, model: link.model, apiKey: link.apiKey }, sha256Hex),
      limits,
      windowMs,
      fallback: memory,
    })
    : memory;
  const headerless = createHeaderlessRule({
    // A refusal stating no figures puts back the limits assumed at the start (a private endpoint's: provisional ones).
    assumed: figures.privateUnpaced ? PROVISIONAL_LIMITS : limits,
    operatorStated: figures.limitsStated,
    answersToUnpace: figures.privateUnpaced ? 1 : undefined,
  });
  return { budget: createLlmBudget({ store, observer, headerless }), store };
}
