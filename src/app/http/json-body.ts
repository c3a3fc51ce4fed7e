/** @module Reads a JSON request body with content-type, size, time and nesting checks. */
import { AppError } from "../../domain/errors.ts";
import { describeInvalidBody } from "../contract/validation-message.ts";

/**
 * Reads a JSON request body, checking the content type first, then the size
 * (also for chunked bodies, stopping once past the limit), then the syntax.
 * A body that has not arrived within `timeoutMs` ends the request: a client
 * trickling its body (or stopping short of its Content-Length) holds nothing.
 *
 * @param request the incoming request
 * @param maxBytes the largest body accepted
 * @param timeoutMs how long the whole body may take to arrive
 * @returns the parsed JSON object
 * @throws {AppError} `unsupported_media_type`, `payload_too_large`, `request_timeout` or `invalid_request`
 */
export async function readJsonBody(
  request: Request,
  maxBytes: number,
  timeoutMs = BODY_TIMEOUT_DEFAULT_MS,
): Promise<unknown> {
  assertJsonContentType(request.headers.get("content-type"));
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw tooLarge(maxBytes);
  const text = await withinTime(readLimitedText(request, maxBytes), timeoutMs);
  if (text.trim() === "") {
    throw new AppError(
      "invalid_request",
      'The request body is empty; send a JSON object such as {"url": "https://youtu.be/VIDEO_ID"}',
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AppError(
      "invalid_request",
      'The request body is not valid JSON; send a JSON object such as {"url": "https://youtu.be/VIDEO_ID"}',
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
  // The validator's error messages recurse into the value: thousands of levels overflow the stack.
  if (nestedDeeperThan(value, MAX_DEPTH)) {
    throw new AppError(
      "invalid_request",
      `The request body is nested more than ${MAX_DEPTH} levels deep; send a flat JSON object such as {"url": ` +
        `"https://youtu.be/VIDEO_ID"}`,
    );
  }
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
        reject(error);
      },
    );
  });
}

/** A chat body is flat; this bound only keeps absurd nesting away from the validator. */
const MAX_DEPTH = 32;

/** Walks without recursion, so the check itself cannot overflow. */
function nestedDeeperThan(root: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[root, 1]];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [value, depth] = next;
    if (typeof value !== "object" || value === null) continue;
    if (depth > max) return true;
    for (const child of Object.values(value)) stack.push([child, depth + 1]);
  }
  return false;
}

function assertJsonContentType(header: string | null): void {
  const mediaType = header?.split(";")[0]?.trim().toLowerCase();
  if (mediaType === "application/json") return;
  const got = header ? `got ${JSON.stringify(header.slice(0, 100))}` : "none was sent";
  throw new AppError("unsupported_media_type", `Content-Type must be application/json; ${got}`);
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });

async function readLimitedText(request: Request, maxBytes: number): Promise<string> {
  // With a declared length (already checked against the limit) HTTP framing bounds the body, so it
  // is read whole, several times faster than chunk by chunk; the size is checked again all the same.
  // `request.body` is not touched then: on Bun it makes a stream, which the read then goes through.
  if (request.headers.has("content-length") && !request.headers.has("transfer-encoding")) {
    const bytes = new Uint8Array(await request.arrayBuffer());
    if (bytes.byteLength > maxBytes) throw tooLarge(maxBytes);
    return decodeUtf8([bytes], bytes.byteLength);
  }
  if (!request.body) return "";
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
  return decodeUtf8(chunks, size);
}

function decodeUtf8(chunks: Uint8Array[], size: number): string {
  const all = chunks.length === 1 ? chunks[0]! : new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks.length === 1 ? [] : chunks) {
    all.set(chunk, offset);
    offset += chunk.byteLength;
  }
  try {
    return UTF8.decode(all);
  } catch {
    throw new AppError("invalid_request", "The request body is not valid UTF-8; send JSON encoded as UTF-8");
  }
}

function tooLarge(maxBytes: number): AppError {
  return new AppError(
    "payload_too_large",
    `The request body is larger than ${maxBytes} bytes; send a smaller body (a prompt is cut at 500 characters anyway)`,
  );
}
