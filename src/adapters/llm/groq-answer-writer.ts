/** @module The answer writer on Groq's chat completions, built on the generic LLM answer writer. */
import type { AnswerWriter } from "../../domain/ports.ts";
import { createMemoryBudgetStore } from "./budget/budget-store.ts";
import { createLlmBudget, type LlmBudget } from "./budget/llm-budget.ts";
import { createGroqCompleter, type LlmCallObserver } from "./calls/groq-completer.ts";
import { createLlmAnswerWriter } from "./llm-answer-writer.ts";

export interface GroqWriterOptions {
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
  /** The model's context window (128k tokens by default, as Groq's Llama models). */
  contextTokens?: number;
  /** The provider's budget every call passes through; by default one in this process on Groq's free-plan figures. */
  budget?: LlmBudget;
  /** Most calls in flight at once for one answer. */
  concurrency: number;
  fetch?: typeof fetch;
  /** Told how each LLM attempt ended (metrics). */
  observe?: LlmCallObserver;
}

/**
 * An answer writer on Groq's chat completions (or any OpenAI-compatible
 * server): groq-sdk for the wire, with bounded retries, under the answer
 * pipeline of `createLlmAnswerWriter`.
 *
 * @param options connection, limits and budgets
 * @returns the writer, named `groq:<model>`
 */
export function createGroqAnswerWriter(options: GroqWriterOptions): AnswerWriter {
  const completer = createGroqCompleter({
    apiKey: options.apiKey,
    baseUrl: options.baseUrl,
    model: options.model,
    timeoutMs: options.timeoutMs,
    maxRetries: options.maxRetries,
    fetch: options.fetch,
    observe: options.observe,
  });
  return createLlmAnswerWriter({
    name: `groq:${options.model}`,
    completer,
    inputTokenBudget: options.inputTokenBudget,
    contextTokens: options.contextTokens ?? 131_072,
    budget: options.budget ??
      createLlmBudget({
        store: createMemoryBudgetStore({ limits: { tokensPerWindow: 6_000, requestsPerWindow: 30 }, windowMs: 60_000 }),
      }),
    maxOutputTokens: options.maxOutputTokens,
    concurrency: options.concurrency,
    retryBudgetMs: options.retryBudgetMs,
    maxRetries: options.maxRetries,
  });
}
