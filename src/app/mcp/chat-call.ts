/** @module One `chat_about_video` call: arguments checked as POST /chat's body, rate limit, use case, result. */
import type { ChatService } from "../../domain/chat.ts";
import { AppError } from "../../domain/errors.ts";
import type { AnswerListener } from "../../domain/generation.ts";
import type { KeyIdentity, RateLimiter } from "../../domain/ports.ts";
import type { MeteredRequest, UsageMeter } from "../../domain/usage/meter.ts";
import { describeError } from "../http/framework-errors.ts";
import type { Logger } from "../log/logger.ts";
import { answerResult, errorResult, toChatRequest, type ToolResult } from "./chat-tool.ts";
import { createProgressSteps, type ProgressStep } from "./progress.ts";

/**
 * Whom the rate limiter and the usage meter count MCP calls against: the
 * person who started the process is its only caller, so there is no key;
 * `RATE_LIMIT` and `QUOTA` apply to this identity (shared by every MCP process
 * on one Redis).
 */
export const MCP_IDENTITY: KeyIdentity = { id: "mcp:stdio", name: "MCP (stdio)" };

export interface ChatCallDeps {
  chat: ChatService;
  rateLimiter: RateLimiter;
  /** Usage per caller and its quotas; without it nothing is metered. */
  usage?: UsageMeter;
  logger: Logger;
  /** Largest arguments, as JSON bytes: the HTTP body limit (`MAX_BODY_BYTES`). */
  maxArgumentBytes: number;
  /** Time limit of a call without a progress token (`REQUEST_TIMEOUT_MS`). */
  requestTimeoutMs: number;
  /** Time limit of a call followed with a progress token, as a stream's (`STREAM_TIMEOUT_MS`). */
  progressTimeoutMs: number;
  now?: () => number;
}

export interface ChatCallOptions {
  /** Aborted when the client cancels the call or goes away: the work stops unless another caller shares it. */
  signal?: AbortSignal;
  /** Receives each progress step, when the client sent a progress token. */
  progress?: (step: ProgressStep) => void;
  /** Whom the call is counted against (rate limit, usage, quota): {@link MCP_IDENTITY} by default. */
  caller?: KeyIdentity;
}

/**
 * Runs one call of the tool. Never throws: every failure is a result with
 * `isError`, logged as the HTTP request log logs a failed request.
 *
 * @param args the call's `arguments`
 */
export async function callChatTool(
  deps: ChatCallDeps,
  args: unknown,
  options: ChatCallOptions = {},
): Promise<ToolResult> {
  const now = deps.now ?? (() => performance.now());
  const started = now();
  const fields: Record<string, unknown> = {};
  const caller = options.caller ?? MCP_IDENTITY;
  let metered: MeteredRequest | undefined;
  try {
    checkSize(args, deps.maxArgumentBytes);
    const request = toChatRequest(args);
    fields.video_id = request.videoId;
    const decision = await deps.rateLimiter.take(caller);
    if (!decision.allowed) {
      throw new AppError("rate_limited", "MCP calls are over their rate limit (RATE_LIMIT)", {
        retryAfterSeconds: decision.resetSeconds,
      });
    }
    metered = await deps.usage?.begin(caller, { timeoutMs: timeoutOf(deps, options) });
    if (metered?.refusal) throw metered.refusal;
    const outcome = await answer(deps, request, options, metered);
    metered?.answered(outcome);
    fields.cache = outcome.cache;
    deps.logger.info("mcp_call", { ...fields, duration_ms: Math.round(now() - started) });
    return answerResult(outcome.response);
  } catch (error) {
    const code = error instanceof AppError ? error.code : "internal_error";
    // A failed call costs nothing: it is counted as refused. One the server itself turned away is given back.
    if (metered) metered.refused(code);
    else deps.usage?.refuse(caller, code);
    if (code === "overloaded") await giveBack(deps, caller);
    if (code === "internal_error") deps.logger.error("unhandled_error", { error: describeError(error) });
    deps.logger.info("mcp_call", { ...fields, error: code, duration_ms: Math.round(now() - started) });
    return errorResult(error);
  }
}

async function answer(
  deps: ChatCallDeps,
  request: ReturnType<typeof toChatRequest>,
  options: ChatCallOptions,
  metered?: MeteredRequest,
) {
  const { progress } = options;
  const admit = metered?.admit;
  const timeoutMs = timeoutOf(deps, options);
  if (!progress) return await deps.chat.answer(request, { signal: options.signal, timeoutMs, admit });
  const steps = createProgressSteps();
  // Only the steps of the work are told; the answer's text comes whole in the result.
  const listener: AnswerListener = (event) => {
    if (event.type !== "progress") return;
    const step = steps.next(event.progress);
    if (step) progress(step);
  };
  return await deps.chat.answer(request, { signal: options.signal, listener, timeoutMs, admit });
}

/** A call followed with a progress token has a stream's time limit. */
function timeoutOf(deps: ChatCallDeps, options: ChatCallOptions): number {
  return options.progress ? deps.progressTimeoutMs : deps.requestTimeoutMs;
}

async function giveBack(deps: ChatCallDeps, caller: KeyIdentity): Promise<void> {
  try {
    await deps.rateLimiter.take(caller, -1);
  } catch (cause) {
    deps.logger.warn("rate_limit_settle_failed", { error: describeError(cause) });
  }
}

const encoder = new TextEncoder();

/** Arguments over the HTTP body limit are refused as such a body is (`payload_too_large`). */
function checkSize(args: unknown, maxBytes: number): void {
  let json: string;
  try {
    json = JSON.stringify(args ?? {});
  } catch {
    // Nesting too deep to serialise (it was parsed, so it fits in memory): the schema check names the field.
    return;
  }
  // A UTF-8 byte is at least a UTF-16 unit and at most three: encode only when the length does not decide.
  if (json.length <= maxBytes / 3) return;
  if (json.length > maxBytes || encoder.encode(json).byteLength > maxBytes) {
    throw new AppError(
      "payload_too_large",
      `The tool's arguments are larger than ${maxBytes} bytes (MAX_BODY_BYTES); send a shorter prompt (it is cut ` +
        `at 500 characters anyway)`,
    );
  }
}
