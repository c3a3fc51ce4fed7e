/** @module The answer writer on any OpenAI-compatible endpoint (Groq's by default), on the LLM answer writer. */
import type { TranscriptSource } from "../../domain/ports.ts";
import type { LinesKeeper } from "../../domain/reading/transcript-lines.ts";
import type { AnswerWriter } from "../../domain/ports.ts";
import { createMemoryBudgetStore } from "./budget/budget-store.ts";
import { createLlmBudget, type LlmBudget } from "./budget/llm-budget.ts";
import { PROVISIONAL_LIMITS } from "./budget/headerless.ts";
import type { LimitDialect } from "./budget/limits-report.ts";
import { createGroqCompleter, type LlmCallObserver } from "./calls/groq-completer.ts";
import { createLlmAnswerWriter } from "./llm-answer-writer.ts";
import { type ReasoningEffort, reasoningOf } from "./models/model-table.ts";
import { createReasoningRoom, reasoningParams } from "./models/reasoning.ts";

/** The endpoint, model, limits and budget of an OpenAI-compatible answer writer. */
export interface OpenAiCompatibleWriterOptions {
  apiKey: string;
  /** OpenAI-compatible endpoint; Groq's when undefined. */
  baseUrl?: string;
  model: string;
  /** Time limit of each call. */
  timeoutMs: number;
  /** Retries of one failed call. */
  maxRetries: number;
  /** Most time spent waiting between retries for one answer. */
  retryBudgetMs: number;
  /** Optional cap on the input tokens of one call, prompt included. */
  inputTokenBudget?: number;
  maxOutputTokens: number;
  /** The model's context window (131,072 tokens by default, as Groq's models). */
  contextTokens?: number;
  /** The provider's budget every call passes through; by default one in this process on Groq's free-plan figures. */
  budget?: LlmBudget;
  /** Most calls in flight at once for one answer. */
  concurrency: number;
  fetch?: typeof fetch;
  /** The writer calls this as each LLM attempt ends (metrics). */
  observe?: LlmCallObserver;
  /** How hard a reasoning model thinks (`LLM_REASONING_EFFORT`; `low` by default). */
  reasoningEffort?: ReasoningEffort;
  /** How the endpoint writes its rate-limit headers (Groq's by default). */
  dialect?: LimitDialect;
  /** The settings that name the model, for the message when the endpoint does not serve it. */
  modelSetting?: string;
  /** Whether a 429 for the provider's day is waited out within the deadline (false in a chain of models). */
  waitsOutDay?: boolean;
  /** Where a detail's second reading of the video is fetched (see `findSearchTerms`); none without it. */
  readings?: TranscriptSource;
  /** Where each transcript's lines and scores are kept (see `LlmWriterOptions.linesOf`). */
  linesOf?: LinesKeeper;
}

/**
 * An answer writer on any OpenAI-compatible chat completions endpoint (Groq's
 * by default): groq-sdk for the wire, with bounded retries, under the answer
 * pipeline of `createLlmAnswerWriter`. A reasoning model is asked for the
 * configured effort, its reasoning kept out of the answer, and every call
 * given room for its reasoning besides the answer.
 *
 * @param options connection, limits and budgets
 * @returns the writer, named `groq:<model>`
 */
export function createOpenAiCompatibleAnswerWriter(options: OpenAiCompatibleWriterOptions): AnswerWriter {
  const dialect = options.dialect ?? "groq";
  const effort = options.reasoningEffort ?? "low";
  const traits = reasoningOf(options.model);
  const completer = createGroqCompleter({
    apiKey: options.apiKey,
    baseUrl: options.baseUrl,
    model: options.model,
    timeoutMs: options.timeoutMs,
    maxRetries: options.maxRetries,
    fetch: options.fetch,
    observe: options.observe,
    dialect,
    reasoning: reasoningParams(traits, effort, dialect === "groq"),
    modelSetting: options.modelSetting,
  });
  return createLlmAnswerWriter({
    name: `groq:${options.model}`,
    model: options.model,
    completer,
    inputTokenBudget: options.inputTokenBudget,
    contextTokens: options.contextTokens ?? 131_072,
    budget: options.budget ??
      createLlmBudget({
        store: createMemoryBudgetStore({ limits: PROVISIONAL_LIMITS, windowMs: 60_000 }),
      }),
    maxOutputTokens: options.maxOutputTokens,
    concurrency: options.concurrency,
    retryBudgetMs: options.retryBudgetMs,
    maxRetries: options.maxRetries,
    reasoning: createReasoningRoom(traits !== undefined, effort),
    waitsOutDay: options.waitsOutDay,
    readings: options.readings,
    linesOf: options.linesOf,
  });
}
