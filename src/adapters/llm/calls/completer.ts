/** @module The chat-completion port: requests, completions and the provider-limit error. */
import type { AppError } from "../../../domain/errors.ts";
import type { LimitReport } from "../budget/limits-report.ts";
import type { ChatMessage } from "./chat-message.ts";
import type { RetryBudget } from "./retry.ts";

/** Receives the answer's text piece by piece as the model streams it (awaited, so a slow reader holds the stream). */
export type OnText = (piece: string) => void | Promise<void>;

/** One chat completion asked of the model. */
export interface CompletionRequest {
  messages: ChatMessage[];
  maxTokens: number;
  signal?: AbortSignal;
  /** The request's shared wait budget for retries. */
  retryBudget: RetryBudget;
  /**
   * When set, the answer is streamed and each piece of text is handed here as
   * it arrives (awaited, so a slow consumer slows the reading). A call that
   * has handed over text is never retried: the text cannot be taken back.
   */
  onText?: OnText;
}

/** The model's reply and what it cost. */
export interface Completion {
  /** The answer; empty only when `cutShort`. */
  text: string;
  inputTokens: number;
  /** Completion tokens, a reasoning model's reasoning among them. */
  outputTokens: number;
  /** Tokens a reasoning model spent reasoning (`usage.completion_tokens_details.reasoning_tokens`). */
  reasoningTokens?: number;
  /**
   * The call reached its `max_tokens` before writing any answer (a reasoning model that spent them all reasoning):
   * it may be asked again with more room.
   */
  cutShort?: boolean;
  /** What the provider said about its limits on this answer. */
  limits: LimitReport;
}

/**
 * The provider refused a call for its limits: `rate` (429, the window's
 * budget is spent: wait and send it again) or `size` (413, the call alone is
 * larger than the window allows: never send it again).
 */
export class ProviderLimitError extends Error {
  constructor(
    readonly kind: "rate" | "size",
    readonly report: LimitReport,
    /** What the completer tells the caller if the request gives up here. */
    readonly error: AppError,
  ) {
    super(error.message, { cause: error });
    this.name = "ProviderLimitError";
  }
}

/**
 * Makes one chat completion, retrying within bounds. The seam between the
 * answer pipeline and the vendor SDK.
 */
export interface Completer {
  /** @throws {ProviderLimitError} on 429 and 413; {AppError} upstream_timeout or upstream_error otherwise */
  complete(request: CompletionRequest): Promise<Completion>;
}
