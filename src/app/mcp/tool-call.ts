/** @module What every tool call shares: argument size, admission, the call's log line, failures as tool results. */
import { AppError } from "../../domain/errors.ts";
import type { KeyIdentity, RateLimiter } from "../../domain/ports.ts";
import type { MeteredRequest, UsageMeter } from "../../domain/usage/meter.ts";
import { describeError } from "../http/framework-errors.ts";
import type { Logger } from "../log/logger.ts";
import { admitCall, giveBackCall, MCP_IDENTITY } from "./admission.ts";
import { errorResult, type ToolResult } from "./chat-tool.ts";
import type { ProgressStep } from "./progress.ts";

/** What every tool call needs. */
export interface ToolCallDeps {
  rateLimiter: RateLimiter;
  logger: Logger;
  /** Whom calls are counted against: the API key's identity over HTTP; {@link MCP_IDENTITY} (stdio) by default. */
  identity?: KeyIdentity;
  /** Usage per caller and its quotas; without it nothing is metered. */
  usage?: UsageMeter;
  /** Largest arguments, as JSON bytes: the HTTP body limit (`MAX_BODY_BYTES`). */
  maxArgumentBytes: number;
  /** Time limit of a call without a progress token (`REQUEST_TIMEOUT_MS`). */
  requestTimeoutMs: number;
  /** Time limit of a call followed with a progress token, as a stream's (`STREAM_TIMEOUT_MS`). */
  progressTimeoutMs: number;
  /** What an `internal_error` result tells the caller to do (where the details can be found). */
  internalErrorMessage?: string;
  now?: () => number;
}

/** How the client follows one call. */
export interface ToolCallOptions {
  /** Aborted when the client cancels the call or goes away: the work stops unless another caller shares it. */
  signal?: AbortSignal;
  /** Receives each progress step, when the client sent a progress token. */
  progress?: (step: ProgressStep) => void;
}

/** One call's steps, given its log line's fields to fill in. */
export interface ToolCallSteps<T> {
  /** The call's time limit: how long the quota may hold what it sets aside for it. */
  timeoutMs: number;
  /** Aborted when the client cancels the call or goes away: a call it ended is charged once admitted. */
  signal?: AbortSignal;
  /** Checks the arguments (before any cost): returns the request, or throws `invalid_request`. */
  check(args: unknown, fields: Record<string, unknown>): T;
  /** Does the work of an admitted call, and charges it to `metered` once delivered. */
  run(request: T, fields: Record<string, unknown>, metered?: MeteredRequest): Promise<ToolResult>;
}

/** A call's time limit: a stream's when the client follows it with a progress token, else a request's. */
export function callTimeoutMs(deps: ToolCallDeps, options: ToolCallOptions): number {
  return options.progress ? deps.progressTimeoutMs : deps.requestTimeoutMs;
}

/**
 * The steps every call about one video begins with: its time limit and signal as the client follows it, and
 * its arguments checked by `parse`, the video named on the call's log line.
 *
 * @param parse returns the call's request, or throws `invalid_request`
 */
export function videoCallSteps<T extends { videoId: string }>(
  deps: ToolCallDeps,
  options: ToolCallOptions,
  parse: (args: unknown) => T,
): Omit<ToolCallSteps<T>, "run"> {
  return {
    timeoutMs: callTimeoutMs(deps, options),
    signal: options.signal,
    check(args, fields) {
      const request = parse(args);
      fields.video_id = request.videoId;
      return request;
    },
  };
}

/**
 * Runs one tool call. Never throws: every failure is a result with
 * `isError`, logged (`mcp_call`) as the HTTP request log logs a failed request.
 *
 * @param tool the tool's name, for the log line
 * @param args the call's `arguments`
 */
export async function runToolCall<T>(
  deps: ToolCallDeps,
  tool: string,
  args: unknown,
  steps: ToolCallSteps<T>,
): Promise<ToolResult> {
  const now = deps.now ?? (() => performance.now());
  const started = now();
  const identity = deps.identity ?? MCP_IDENTITY;
  const fields: Record<string, unknown> = { tool, key_id: identity.id };
  let metered: MeteredRequest | undefined;
  try {
    checkArgumentSize(args, deps.maxArgumentBytes);
    const request = steps.check(args, fields);
    await admitCall(deps, identity, steps.timeoutMs, (begun) => metered = begun);
    const result = await steps.run(request, fields, metered);
    deps.logger.info("mcp_call", { ...fields, duration_ms: Math.round(now() - started) });
    return result;
  } catch (error) {
    const code = error instanceof AppError ? error.code : "internal_error";
    // A failed call is counted as refused (charged only once admitted to its minutes and given up by its caller, see
    // `MeteredRequest.refused`). One the server itself turned away is given back.
    if (metered) metered.refused(code, steps.signal?.aborted ?? false);
    else deps.usage?.refuse(identity, code);
    if (code === "overloaded") await giveBackCall(deps, identity);
    if (code === "internal_error") deps.logger.error("unhandled_error", { error: describeError(error) });
    deps.logger.info("mcp_call", { ...fields, error: code, duration_ms: Math.round(now() - started) });
    return errorResult(error, deps.internalErrorMessage);
  }
}

const encoder = new TextEncoder();

/** Arguments over the HTTP body limit are refused as such a body is (`payload_too_large`). */
export function checkArgumentSize(args: unknown, maxBytes: number): void {
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
