/** @module Chat completions on Groq (or any OpenAI-compatible server) with groq-sdk, retries and outcomes. */
import Groq from "groq-sdk";
import { AppError, isAppError } from "../../../domain/errors.ts";
import { linkSignals } from "../../../domain/linked-signal.ts";
import { limitBody, mebibytes } from "../../body-limit.ts";
import { type LimitDialect, type LimitReport, reportFromHeaders, reportFromMessage } from "../budget/limits-report.ts";
import { createThinkFilter, type ReasoningParams, withoutThinking } from "../models/reasoning.ts";
import { modelUnavailable } from "../models/model-unavailable.ts";
import {
  type Completer,
  type Completion,
  type CompletionRequest,
  type OnText,
  ProviderLimitError,
} from "./completer.ts";
import { backoffMs, requestedDelayMs, sleep } from "./retry.ts";
import { createGroqClient, GROQ_BASE_URL } from "./groq-client.ts";

export interface GroqCompleterOptions {
  apiKey: string;
  /** OpenAI-compatible endpoint as such clients take it (`http://localhost:11434/v1`); Groq's when undefined. */
  baseUrl?: string;
  model: string;
  /** Time limit of each call, body included; a call that outlasts it is not retried. */
  timeoutMs: number;
  /** Retries of one call after a 5xx or a dropped connection (rate limits are waited out by the budget). */
  maxRetries: number;
  fetch?: typeof fetch;
  /** Most bytes of one response body (2 MiB by default; an answer is a few KB). */
  maxBodyBytes?: number;
  /** Clock for HTTP-date `retry-after` values. */
  now?: () => number;
  random?: () => number;
  /** The completer calls this as each attempt ends, with its tokens when it answered (metrics). */
  observe?: LlmCallObserver;
  /** How the endpoint writes its rate-limit headers (Groq's by default). */
  dialect?: LimitDialect;
  /** How a reasoning model is asked to reason, and to keep its reasoning out of the answer. */
  reasoning?: ReasoningParams;
  /** The settings that name the model, for the message when the endpoint does not serve it. */
  modelSetting?: string;
}

/** How one LLM attempt ended, as operators count it. */
export type LlmOutcome = "ok" | "429" | "413" | "5xx" | "timeout" | "model_unavailable" | "error";

/** The completer calls this once each LLM attempt has ended; it must not throw. */
export type LlmCallObserver = (
  outcome: LlmOutcome,
  seconds: number,
  tokens?: { input: number; output: number },
  /** The model called (one of a chain's). */
  model?: string,
) => void;

/** A failed attempt, sorted by what to do next. */
interface Failure {
  retryable: boolean;
  /** The wait the server named, when it named one. */
  delayMs?: number;
  error: AppError;
  /** A refusal for the provider's limits, which the budget handles. */
  limit?: ProviderLimitError;
}

/**
 * Chat completions through groq-sdk, with the SDK's own retries off: its
 * retry obeys any `retry-after` however long. Here retries are bounded in
 * count (`maxRetries`) and in total wait (the request's retry budget); a
 * wait that does not fit ends the request at once with 503
 * `upstream_blocked` and the server's `retry-after`.
 *
 * @returns the completer
 */
export function createGroqCompleter(options: GroqCompleterOptions): Completer {
  const dialect = options.dialect ?? "groq";
  const client = createGroqClient({
    apiKey: options.apiKey,
    baseUrl: options.baseUrl ?? GROQ_BASE_URL,
    timeoutMs: options.timeoutMs,
    fetch: cappedFetch(options),
  });

  /** The request's fields besides the messages and the stream flag. */
  const body = (request: CompletionRequest) => ({
    model: options.model,
    messages: request.messages,
    max_tokens: request.maxTokens,
    temperature: 0.2,
    ...options.reasoning,
  });

  async function once(request: CompletionRequest, signal: AbortSignal): Promise<Completion> {
    if (request.onText) return await streamed(request, request.onText, signal);
    const { data: completion, response } = await client.chat.completions
      .create(body(request), { signal })
      .withResponse();
    const choice = completion.choices[0];
    const text = withoutThinking(choice?.message?.content ?? "").trim();
    return finished(text, choice?.finish_reason, completion.usage, reportFromHeaders(response.headers, dialect));
  }

  /**
   * A streamed attempt: the text piece by piece, the usage from the last chunk (Groq's `x_groq`, or OpenAI's `usage`).
   */
  async function streamed(
    request: CompletionRequest,
    onText: OnText,
    signal: AbortSignal,
  ): Promise<Completion> {
    const { data: chunks, response } = await client.chat.completions
      .create({ ...body(request), stream: true }, { signal })
      .withResponse();
    const thinking = createThinkFilter();
    let text = "";
    let usage: Usage | undefined;
    let reason: string | null | undefined;
    const hand = async (piece: string) => {
      if (!piece) return;
      text += piece;
      await onText(piece);
    };
    for await (const chunk of chunks) {
      reason = chunk.choices[0]?.finish_reason ?? reason;
      const piece = chunk.choices[0]?.delta?.content;
      if (piece) await hand(thinking.push(piece));
      usage = chunk.x_groq?.usage ?? (chunk as { usage?: Usage }).usage ?? usage;
    }
    await hand(thinking.end());
    // A stream that ends without a finish reason was cut, however cleanly its connection closed.
    if (!reason) throw new AppError("upstream_error", "The language model's answer stopped short; try again later");
    return finished(text.trim(), reason, usage, reportFromHeaders(response.headers, dialect));
  }

  /** One attempt, told to the observer when there is one. */
  async function observed(request: CompletionRequest, signal: AbortSignal): Promise<Completion> {
    const observe = options.observe;
    if (!observe) return await once(request, signal);
    const started = performance.now();
    try {
      const completion = await once(request, signal);
      observe("ok", (performance.now() - started) / 1000, {
        input: completion.inputTokens,
        output: completion.outputTokens,
      }, options.model);
      return completion;
    } catch (error) {
      observe(llmOutcome(error, signal), (performance.now() - started) / 1000, undefined, options.model);
      throw error;
    }
  }

  return {
    async complete(request) {
      let handedOver = false;
      const onText = request.onText && ((piece: string) => ((handedOver = true), request.onText!(piece)));
      for (let attempt = 0;; attempt++) {
        // The SDK's own timeout stops at the headers; this one also bounds a body that trickles in.
        const timeout = linkSignals([request.signal], { ms: options.timeoutMs });
        try {
          return await observed({ ...request, onText }, timeout.signal);
        } catch (error) {
          const failure = classify(error, options, request.signal, timeout.timedOut);
          if (failure.limit) throw failure.limit;
          if (!failure.retryable || handedOver) throw failure.error;
          const wait = failure.delayMs ?? backoffMs(attempt, options.random);
          if (attempt >= options.maxRetries || !request.retryBudget.take(wait)) throw failure.error;
          await sleep(wait, request.signal).catch((cause) => {
            throw outOfTime(cause);
          });
        } finally {
          timeout.dispose();
        }
      }
    },
  };
}

const MAX_BODY_BYTES = 2 * 1024 * 1024;

/** What an answer's `usage` says (Groq and OpenAI alike). */
interface Usage {
  prompt_tokens?: number;
  completion_tokens?: number;
  completion_tokens_details?: { reasoning_tokens?: number } | null;
}

/**
 * An answered call as the run reads it: an empty answer cut off by `max_tokens` is cut short (asked again with more
 * room); any other empty answer is a failure.
 */
function finished(
  text: string,
  reason: string | null | undefined,
  usage: Usage | null | undefined,
  limits: LimitReport,
): Completion {
  const cutShort = text === "" && reason === "length";
  if (!text && !cutShort) {
    throw new AppError("upstream_error", "The language model returned an empty answer; try again");
  }
  return {
    text,
    inputTokens: usage?.prompt_tokens ?? 0,
    outputTokens: usage?.completion_tokens ?? 0,
    reasoningTokens: usage?.completion_tokens_details?.reasoning_tokens ?? undefined,
    cutShort: cutShort || undefined,
    limits,
  };
}

/** @returns the fetch the SDK sends through, reading at most `maxBodyBytes` of each response */
function cappedFetch(options: GroqCompleterOptions): typeof fetch {
  const fetcher = options.fetch ?? fetch;
  const maxBytes = options.maxBodyBytes ?? MAX_BODY_BYTES;
  const tooLarge = () =>
    new AppError(
      "upstream_error",
      `The language model sent a response larger than ${mebibytes(maxBytes)}; try again later`,
    );
  const capped = (input: string | URL | Request, init?: RequestInit) =>
    fetcher(input, init).then((response) => limitBody(response, maxBytes, tooLarge, init?.signal));
  return capped as typeof fetch;
}

function classify(
  error: unknown,
  options: GroqCompleterOptions,
  signal: AbortSignal | undefined,
  timedOut: boolean,
): Failure {
  if (isAppError(error)) return { retryable: false, error };
  if (error instanceof Groq.APIConnectionTimeoutError || (timedOut && !signal?.aborted)) {
    return {
      retryable: false,
      error: new AppError(
        "upstream_timeout",
        `The language model did not answer within ${options.timeoutMs / 1000} s; try again later`,
        { cause: error },
      ),
    };
  }
  if (error instanceof Groq.APIUserAbortError || signal?.aborted) return { retryable: false, error: outOfTime(error) };
  if (error instanceof Groq.APIConnectionError) {
    return {
      retryable: true,
      error: new AppError("upstream_error", "Could not reach the language model; try again later", { cause: error }),
    };
  }
  if (error instanceof Groq.APIError && error.status !== undefined) {
    const delayMs = requestedDelayMs(error.headers, options.now);
    if (error.status === 429 || error.status === 413) return limitFailure(error, delayMs, options.dialect);
    if (isModelUnavailable(error)) {
      return { retryable: false, error: modelUnavailable(options.model, options.modelSetting, { cause: error }) };
    }
    const retryable = error.status >= 500 || error.status === 408 || error.status === 409;
    return {
      retryable,
      delayMs,
      error: new AppError(
        "upstream_error",
        `The language model failed to answer (HTTP ${error.status}); try again later`,
        { cause: error },
      ),
    };
  }
  return {
    retryable: false,
    error: new AppError("upstream_error", "The language model failed to answer; try again later", { cause: error }),
  };
}

/** A 429 or 413, with what its headers and body say about the limits. */
function limitFailure(
  error: InstanceType<typeof Groq.APIError>,
  delayMs: number | undefined,
  dialect: LimitDialect = "groq",
): Failure {
  const body = reportFromMessage(`${error.message} ${JSON.stringify(error.error ?? "")}`);
  const report: LimitReport = {
    ...reportFromHeaders(error.headers, dialect),
    ...definedOnly(body),
    retryAfterMs: delayMs ?? body.retryAfterMs,
  };
  // A day at most: a larger figure is garbage, and is not repeated to callers.
  const seconds = report.retryAfterMs === undefined
    ? undefined
    : Math.min(86_400, Math.max(1, Math.ceil(report.retryAfterMs / 1000)));
  const when = seconds === undefined ? "later" : `in ${seconds} s`;
  const blocked = new AppError(
    "upstream_blocked",
    `The language model is rate-limiting this server; try again ${when}`,
    { cause: error, retryAfterSeconds: seconds },
  );
  if (error.status === 429) {
    return { retryable: false, error: blocked, limit: new ProviderLimitError("rate", report, blocked) };
  }
  const tooLarge = new AppError(
    "upstream_error",
    "The language model refused a call as larger than its limit allows; try again later",
    { cause: error },
  );
  return { retryable: false, error: tooLarge, limit: new ProviderLimitError("size", report, tooLarge) };
}

function definedOnly(report: LimitReport): LimitReport {
  return Object.fromEntries(Object.entries(report).filter(([, value]) => value !== undefined)) as LimitReport;
}

/** @returns the outcome a failed attempt counts as: its HTTP status class, a timeout, or error */
function llmOutcome(error: unknown, signal: AbortSignal): LlmOutcome {
  if (
    error instanceof Groq.APIConnectionTimeoutError ||
    (signal.aborted && !(error instanceof Groq.APIError && error.status !== undefined))
  ) return "timeout";
  if (!(error instanceof Groq.APIError) || error.status === undefined) return "error";
  if (error.status === 429 || error.status === 413) return String(error.status) as "429" | "413";
  if (isModelUnavailable(error)) return "model_unavailable";
  return error.status >= 500 ? "5xx" : "error";
}

function outOfTime(cause: unknown): AppError {
  return new AppError(
    "upstream_timeout",
    "The request ran out of time while the language model was answering; try again later",
    { cause },
  );
}

/**
 * The endpoint does not serve the model: Groq answers 404 `model_not_found` for a model it never had or shut down
 * (since 2026-08), and 400 `model_decommissioned` for older retirements; other servers answer 404 naming the model.
 */
function isModelUnavailable(error: InstanceType<typeof Groq.APIError>): boolean {
  const inner = (error.error ?? {}) as { code?: unknown; error?: { code?: unknown } };
  const code = String(inner.code ?? inner.error?.code ?? "");
  if (code === "model_not_found" || code === "model_decommissioned") return true;
  return error.status === 404 && /\bmodel\b/i.test(error.message) &&
    /not (exist|found)|decommissioned/i.test(error.message);
}
