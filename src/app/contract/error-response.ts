/** @module Builds the contract's JSON error response and maps Elysia's error codes to the service's. */
import { AppError, type ErrorCode } from "../../domain/errors.ts";
import { ERROR_STATUS } from "./error-status.ts";

export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

/** The longest `Retry-After` the service sends for an upstream's wait or a limit. */
export const MAX_RETRY_AFTER_SECONDS = 86_400;
/** A spent quota renews at the end of its UTC month at the latest. */
const MAX_QUOTA_RETRY_AFTER_SECONDS = 31 * 86_400;

/**
 * The `Retry-After` of an error, in whole seconds (at least 1), or undefined when it has none. An upstream's wait
 * is passed on, but never beyond a day: past that it is garbage, not advice. A spent quota's is the time until its
 * period renews, up to a month.
 */
export function retryAfterOf(error: AppError): number | undefined {
  if (error.retryAfterSeconds === undefined) return undefined;
  const most = error.code === "quota_exceeded" ? MAX_QUOTA_RETRY_AFTER_SECONDS : MAX_RETRY_AFTER_SECONDS;
  return Math.min(most, Math.max(1, Math.ceil(error.retryAfterSeconds)));
}

/**
 * Builds the contract's error response. Unknown errors become a bare 500:
 * their message may hold internals, so it is never sent.
 *
 * @param error what was thrown (already unwrapped)
 * @param requestId echoed in the body so callers can quote it
 * @param headers headers to send along (x-request-id, Allow, RateLimit-*)
 */
export function errorResponse(error: AppError, requestId: string, headers: Record<string, string>): Response {
  const status = ERROR_STATUS[error.code];
  const out = new Headers(headers);
  out.set("content-type", JSON_CONTENT_TYPE);
  const retryAfter = retryAfterOf(error);
  if (retryAfter !== undefined) out.set("retry-after", String(retryAfter));
  if (error.code === "method_not_allowed" && !out.has("allow")) out.set("allow", "POST");
  // The rest of a late body may still come: the connection cannot be reused, so it is closed.
  if (error.code === "request_timeout") out.set("connection", "close");
  return new Response(JSON.stringify(errorBodyOf(error, requestId)), { status, headers: out });
}

/** The error body (README, Errors), for a JSON answer or a stream's `error` event. */
export function errorBodyOf(
  error: AppError,
  requestId: string,
): { error: { code: ErrorCode; message: string; request_id: string } } {
  return { error: { code: error.code, message: error.message, request_id: requestId } };
}

/** Maps Elysia's own error codes to ours; anything else is a bug. */
export function fromFrameworkCode(code: string | number): ErrorCode {
  if (code === "NOT_FOUND") return "not_found";
  if (code === "PARSE" || code === "VALIDATION" || code === "INVALID_COOKIE_SIGNATURE") return "invalid_request";
  return "internal_error";
}

export const INTERNAL_ERROR_MESSAGE =
  "Something went wrong on our side; try again, and quote the request id if it persists";
