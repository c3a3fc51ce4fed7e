/** @module The error catalogue of `POST /chat` as the OpenAPI document shows it, with real example messages. */
import type { ChatErrorCode } from "../contract/error-status.ts";

/** How one error code is documented: when it happens, what to do, and a message the service really sends. */
export interface ErrorDoc {
  when: string;
  todo: string;
  example: string;
  /** Whether the response carries `Retry-After`. */
  retryAfter?: true;
}

/**
 * The error catalogue of `POST /chat` (README, Errors) as the OpenAPI document shows
 * it. A `Record` over the codes, so a new code left undocumented fails to compile.
 */
export const CHAT_ERROR_DOCS: Record<ChatErrorCode, ErrorDoc> = {
  invalid_request: {
    when: "Malformed JSON, a field of the wrong type or value, an unknown field, a URL that is not a YouTube video, " +
      "or a body that ended before its declared length",
    todo: "Fix the request; the message names the field and the accepted values",
    example: 'Unknown field "langauge"; allowed fields: url, model, prompt, language, output_format',
  },
  unauthorized: {
    when: "The x-api-key header is missing, empty or unknown",
    todo: "Send a valid key in the x-api-key header",
    example: "Missing API key; send it in the x-api-key header",
  },
  payload_too_large: {
    when: "The body is over the size limit (16 KiB by default), chunked bodies included",
    todo: "Send a smaller body",
    example:
      "The request body is larger than 16384 bytes; send a smaller body (a prompt is cut at 500 characters anyway)",
  },
  unsupported_media_type: {
    when: "The Content-Type is not application/json",
    todo: "Send JSON with Content-Type: application/json",
    example: 'Content-Type must be application/json; got "text/plain"',
  },
  request_timeout: {
    when: "The request body did not arrive in full within the time limit (10 s by default); the connection is closed",
    todo: "Send the whole body without pauses, on a new connection",
    example: "The request body did not arrive within 10 s; send the whole body without pauses",
  },
  video_unavailable: {
    when: "YouTube says the video does not exist, was removed, or is private",
    todo: "Check the URL",
    example: "Video GJLlxj_dtq8 is unavailable on YouTube (it does not exist, was removed, or is private)",
  },
  video_age_restricted: {
    when: "The video is age-restricted (YouTube shows it only to signed-in accounts)",
    todo: "Choose another video; this one cannot be answered",
    example:
      "Video GJLlxj_dtq8 is age-restricted; YouTube only shows it to signed-in accounts, so its transcript cannot " +
      "be read",
  },
  video_unplayable: {
    when:
      "YouTube refuses to play the video for another reason (members-only, region); the message carries YouTube's " +
      "reason",
    todo: "Choose another video",
    example: "YouTube will not play video GJLlxj_dtq8: This video is available to this channel's members only",
  },
  transcript_unavailable: {
    when: "The video has no captions, or none usable for the request (with STT=groq: and its audio could not be read " +
      "or transcribed, or it is longer than STT_MAX_MINUTES)",
    todo: "Choose a video with captions",
    example: "Video GJLlxj_dtq8 has no captions, so there is no transcript to answer from",
  },
  rate_limited: {
    when: "This API key is over its own rate limit",
    todo: "Wait the seconds in Retry-After, then retry",
    example: "This API key is over its rate limit; retry after the time in the Retry-After header",
    retryAfter: true,
  },
  quota_exceeded: {
    when: "This API key has spent its quota (video minutes or requests) for the UTC day or month, or the video is " +
      "longer than the minutes left; Retry-After is the seconds until the period renews",
    todo: "Wait the seconds in Retry-After (the period's end), ask the operator for a larger quota, or choose a " +
      "shorter video",
    example: "This API key has spent its quota of 600 video minutes per month; it renews at 2026-12-01T00:00:00Z",
    retryAfter: true,
  },
  upstream_error: {
    when: "YouTube or the language model answered with something unusable (5xx, unreadable, empty transcript, " +
      "PoToken-gated captions)",
    todo: "Retry later",
    example: "YouTube answered with HTTP 500; try again later",
  },
  upstream_blocked: {
    when: "YouTube refused this server (bot check, HTTP 429), or the language model's rate limit outlasted the retry " +
      "budget",
    todo: "Wait the seconds in Retry-After, then retry",
    example: "YouTube refused this server with a bot check; try again later",
    retryAfter: true,
  },
  overloaded: {
    when:
      "The server's own bound on work in flight is reached (in a stream's `error` event: the server is shutting down)",
    todo: "Wait the seconds in Retry-After, then retry",
    example: "The server is busy with other requests; retry after the time in the Retry-After header",
    retryAfter: true,
  },
  upstream_timeout: {
    when: "YouTube or the language model did not answer within the configured time",
    todo: "Retry later",
    example: "YouTube did not answer within 10 s; try again later",
  },
  internal_error: {
    when: "A bug in the service; it is logged with the request id",
    todo: "Retry; if it persists, report it with the request id",
    example: "Something went wrong on our side; try again, and quote the request id if it persists",
  },
};
