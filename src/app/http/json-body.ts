/** @module Reads a JSON request body's text with content-type, size, time and UTF-8 checks, and parses its object. */
import { AppError } from "../../domain/errors.ts";
import { describeInvalidBody } from "../contract/validation-message.ts";
import { joinChunks } from "../../adapters/body-limit.ts";

/**
 * Reads a JSON request body's text, checking the content type first, then
 * the size (also for chunked bodies, stopping once past the limit), then that
 * it is UTF-8. A body that has not arrived within `timeoutMs` ends the
 * request: a client trickling its body (or stopping short of its
 * Content-Length) holds nothing. {@link parseJsonObject} parses it.
 *
 * @param request the incoming request
 * @param maxBytes the largest body accepted
 * @param timeoutMs how long the whole body may take to arrive
 * @returns the body's text
 * @throws {AppError} `unsupported_media_type`, `payload_too_large`, `request_timeout` or `invalid_request` (also
 *   for a body cut short by the client)
 */
export async function readJsonText(
  request: Request,
  maxBytes: number,
  timeoutMs = BODY_TIMEOUT_DEFAULT_MS,
): Promise<string> {
  const headers = request.headers;
  assertJsonContentType(headers.get("content-type"));
  const declared = headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes) throw tooLarge(maxBytes);
  // With a declared length (already checked against the limit) HTTP framing bounds the body, so it
  // is read whole, several times faster than chunk by chunk. `request.body` is not touched then: on Bun
  // it makes a stream, which the read then goes through.
  if (declared === null || headers.has("transfer-encoding")) {
    const bytes = await withinTime(readChunks(request, maxBytes), timeoutMs);
    return decodeUtf8(bytes);
  }
  // Read as text by the runtime (much cheaper than bytes, then decoding): invalid UTF-8 comes out as U+FFFD, and each
  // invalid sequence (1 to 3 bytes) becomes those 3 bytes, so a text that has one and is longer in UTF-8 than the body
  // was not UTF-8. (Only runs of truncated 4-byte sequences keep their length: they are let through, replaced.)
  const text = await withinTime(request.text(), timeoutMs);
  if (text.includes("\uFFFD") && utf8Length(text) !== Number(declared)) throw notUtf8();
  return text;
}

/**
 * A request body's JSON object. How deep it nests is checked where that
 * matters, before a failed schema check describes it (`checkChatBody`).
 *
 * @param text the body's text
 * @throws {AppError} `invalid_request` for blank text, invalid JSON, another JSON value, or an own `__proto__` key
 */
export function parseJsonObject(text: string): object {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AppError(
      "invalid_request",
      text.trim() === ""
        ? 'The request body is empty; send a JSON object such as {"url": "https://youtu.be/VIDEO_ID"}'
        : 'The request body is not valid JSON; send a JSON object such as {"url": "https://youtu.be/VIDEO_ID"}',
    );
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new AppError(
      "invalid_request",
      `The request body must be a JSON object; got ${
        value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`
      }`,
    );
  }
  // Elysia applies the schema's defaults with Object.assign, which turns an own "__proto__" key into the
  // object's prototype: the key would then pass as known and its fields would be read as the body's.
  if (Object.hasOwn(value, "__proto__")) throw new AppError("invalid_request", describeInvalidBody(value, []));
  return value;
}

const BODY_TIMEOUT_DEFAULT_MS = 10_000;

/** The body read, or `request_timeout` once `ms` have passed (the read is left to fail with its connection). */
function withinTime<T>(read: Promise<T>, ms: number): Promise<T> {
  // One promise rather than a race and a `finally`: this runs on every request.
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () =>
        reject(
          new AppError(
            "request_timeout",
            `The request body did not arrive within ${ms / 1000} s; send the whole body without pauses`,
          ),
        ),
      ms,
    );
    read.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof AppError ? error : cutShort(error));
      },
    );
  });
}

/**
 * A read that failed on its own: the client closed its side (or broke the framing) before the body it
 * declared, by its length or a chunk's size, had arrived. The client's fault, so a 400, never a 500.
 */
function cutShort(cause: unknown): AppError {
  return new AppError("invalid_request", "The request body ended before its declared length; send the whole body", {
    cause,
  });
}

function assertJsonContentType(header: string | null): void {
  if (header === "application/json") return; // what nearly every client sends
  const mediaType = header?.split(";")[0]?.trim().toLowerCase();
  if (mediaType === "application/json") return;
  const got = header ? `got ${JSON.stringify(header.slice(0, 100))}` : "none was sent";
  throw new AppError("unsupported_media_type", `Content-Type must be application/json; ${got}`);
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** A body without a declared length, chunk by chunk, stopping once past the limit. */
async function readChunks(request: Request, maxBytes: number): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return joinChunks(chunks, size);
}

function decodeUtf8(bytes: Uint8Array): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    throw notUtf8();
  }
}

function utf8Length(text: string): number {
  return new TextEncoder().encode(text).byteLength;
}

function notUtf8(): AppError {
  return new AppError("invalid_request", "The request body is not valid UTF-8; send JSON encoded as UTF-8");
}

function tooLarge(maxBytes: number): AppError {
  return new AppError(
    "payload_too_large",
    `The request body is larger than ${maxBytes} bytes; send a smaller body (a prompt is cut at 500 characters anyway)`,
  );
}
