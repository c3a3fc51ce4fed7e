/** @module The service's one error type, `AppError`, and the stable error codes of the public contract. */
/** Stable error codes of the public API (the README's Errors table; never renamed, as clients match on them). */
export type ErrorCode =
  | "invalid_request"
  | "unauthorized"
  | "not_found"
  | "method_not_allowed"
  | "payload_too_large"
  | "unsupported_media_type"
  | "request_timeout"
  | "video_unavailable"
  | "video_age_restricted"
  | "video_unplayable"
  | "transcript_unavailable"
  | "rate_limited"
  | "quota_exceeded"
  | "upstream_error"
  | "upstream_blocked"
  | "overloaded"
  | "upstream_timeout"
  | "internal_error";

/** Extra facts an error may carry towards the caller. */
export interface AppErrorOptions {
  /** Seconds after which a retry may succeed (sent as `Retry-After`). */
  retryAfterSeconds?: number;
  /** The underlying failure, kept for logs only and never sent to callers. */
  cause?: unknown;
}

/**
 * The one error type of the service. `message` is written for people and is
 * safe to send to callers: it never holds upstream bodies, stacks or secrets.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly retryAfterSeconds?: number;

  /**
   * @param code stable machine-readable code
   * @param message sentence-case explanation that says what to do
   * @param options retry hint and internal cause
   */
  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** @returns whether `value` is an {@linkcode AppError} with the given code (any code when omitted). */
export function isAppError(value: unknown, code?: ErrorCode): value is AppError {
  return value instanceof AppError && (code === undefined || value.code === code);
}
