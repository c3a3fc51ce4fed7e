import type { ChatMessage } from "./prompts.ts";
import type { RetryBudget } from "./retry.ts";

/** One chat completion asked of the model. */
export interface CompletionRequest {
  messages: ChatMessage[];
  maxTokens: number;
  signal?: AbortSignal;
  /** The request's shared wait budget for retries. */
  retryBudget: RetryBudget;
}

/** The model's reply and what it cost. */
export interface Completion {
  text: string;
  inputTokens: number;
  outputTokens: number;
}

/**
 * Makes one chat completion, retrying within bounds. The seam between the
 * answer pipeline and the vendor SDK.
 */
export interface Completer {
  /** @throws {AppError} upstream_blocked, upstream_timeout or upstream_error */
  complete(request: CompletionRequest): Promise<Completion>;
}
