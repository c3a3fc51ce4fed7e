/** @module The HTTP status of each error code of the contract, and the codes `POST /chat` answers with. */
import type { ErrorCode } from "../../domain/errors.ts";

/** HTTP status of each error code; a code left out fails to compile. */
export const ERROR_STATUS = {
  invalid_request: 400,
  unauthorized: 401,
  not_found: 404,
  method_not_allowed: 405,
  payload_too_large: 413,
  unsupported_media_type: 415,
  request_timeout: 408,
  video_unavailable: 422,
  video_age_restricted: 422,
  video_unplayable: 422,
  transcript_unavailable: 422,
  rate_limited: 429,
  quota_exceeded: 429,
  upstream_error: 502,
  upstream_blocked: 503,
  overloaded: 503,
  upstream_timeout: 504,
  internal_error: 500,
} as const satisfies Record<ErrorCode, number>;

/** The codes only other paths and methods answer with. */
const NOT_FOR_CHAT = ["not_found", "method_not_allowed"] as const;

/** The error codes `POST /chat` itself can answer with: every code but those of other paths and methods. */
export type ChatErrorCode = Exclude<ErrorCode, (typeof NOT_FOR_CHAT)[number]>;

/** The statuses of those codes. */
export type ChatErrorStatus = (typeof ERROR_STATUS)[ChatErrorCode];

/** Every {@link ChatErrorCode}, in the order of {@link ERROR_STATUS}. */
export const CHAT_ERROR_CODES: readonly ChatErrorCode[] = (Object.keys(ERROR_STATUS) as ErrorCode[]).filter(
  (code): code is ChatErrorCode => !(NOT_FOR_CHAT as readonly ErrorCode[]).includes(code),
);
