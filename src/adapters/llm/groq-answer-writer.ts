import type { AnswerWriter } from "../../domain/ports.ts";
import { createGroqCompleter, type LlmCallObserver } from "./groq-completer.ts";
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
  /** Most input tokens of one call, prompt included. */
  inputTokenBudget: number;
  maxOutputTokens: number;
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
    maxOutputTokens: options.maxOutputTokens,
    concurrency: options.concurrency,
    retryBudgetMs: options.retryBudgetMs,
  });
}
