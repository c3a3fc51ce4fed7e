/** @module The HTTP status of each error code of the contract. */
import type { ErrorCode } from "../../domain/errors.ts";

/** HTTP status of each error code; a code left out fails to compile. */
export const ERROR_STATUS: Record<ErrorCode, number> = {
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
};
