/** @module Sends raw bytes on a fresh TCP connection and reads back the HTTP response. */
import { connect } from "node:net";

/** What came back on a raw connection. */
export interface RawResponse {
  /** HTTP status, or undefined when the server closed without a complete response. */
  status?: number;
  /** Header values by lower-case name (repeated headers kept in order). */
  headers: Map<string, string[]>;
  body: Buffer;
  /** True when no complete response arrived before `timeoutMs`. */
  timedOut: boolean;
}

/**
 * Sends bytes as they are on a fresh TCP connection to 127.0.0.1 and reads
 * one HTTP/1.1 response: for requests `fetch` refuses to send (bogus
 * Content-Length, duplicated headers, odd methods, invalid UTF-8 framing).
 *
 * @param port the service's port
 * @param bytes the whole request, head and body
 * @param options `halfClose` ends our side after writing; `head` for a HEAD request (no body expected)
 */
export function rawRequest(
  port: number,
  bytes: Uint8Array | string,
  options: { timeoutMs?: number; halfClose?: boolean; head?: boolean } = {},
): Promise<RawResponse> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let settled = false;
    const socket = connect({ host: "127.0.0.1", port });
    const finish = (timedOut: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const parsed = parseResponse(Buffer.concat(chunks), options.head ?? false, true);
      resolve({ ...(parsed ?? { headers: new Map(), body: Buffer.alloc(0) }), timedOut: timedOut && !parsed });
    };
    const timer = setTimeout(() => finish(true), options.timeoutMs ?? 5_000);
    socket.on("connect", () => {
      socket.write(typeof bytes === "string" ? Buffer.from(bytes, "latin1") : bytes);
      if (options.halfClose) socket.end();
    });
    socket.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      if (parseResponse(Buffer.concat(chunks), options.head ?? false, false)) finish(false);
    });
    socket.on("error", () => finish(false));
    socket.on("close", () => finish(false));
  });
}

/** @returns the response when `data` holds a complete one (or `atEnd` and a head), else undefined */
function parseResponse(data: Buffer, head: boolean, atEnd: boolean): Omit<RawResponse, "timedOut"> | undefined {
  const headEnd = data.indexOf("\r\n\r\n");
  if (headEnd < 0) return undefined;
  const lines = data.subarray(0, headEnd).toString("latin1").split("\r\n");
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? "")?.[1]);
  if (!Number.isInteger(status)) return undefined;
  // An interim response (100 Continue) is followed by the real one.
  if (status >= 100 && status < 200 && status !== 101) return parseResponse(data.subarray(headEnd + 4), head, atEnd);
  const headers = new Map<string, string[]>();
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    headers.set(name, [...(headers.get(name) ?? []), line.slice(colon + 1).trim()]);
  }
  const rest = data.subarray(headEnd + 4);
  if (head || status === 204 || status === 304) return { status, headers, body: Buffer.alloc(0) };
  const length = headers.get("content-length")?.[0];
  if (length !== undefined) {
    const n = Number(length);
    return rest.length >= n ? { status, headers, body: rest.subarray(0, n) } : undefined;
  }
  if (headers.get("transfer-encoding")?.[0]?.toLowerCase() === "chunked") {
    const body = dechunk(rest);
    return body ? { status, headers, body } : undefined;
  }
  return atEnd ? { status, headers, body: rest } : undefined;
}

function dechunk(data: Buffer): Buffer | undefined {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf("\r\n", at);
    if (lineEnd < 0) return undefined;
    const size = parseInt(data.subarray(at, lineEnd).toString("latin1"), 16);
    if (!Number.isFinite(size)) return undefined;
    if (size === 0) return Buffer.concat(parts);
    if (data.length < lineEnd + 2 + size + 2) return undefined;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

/**
 * Builds an HTTP/1.1 request's bytes. Headers are written exactly as given
 * (repeats allowed); `Host` and `Connection: close` are added unless present.
 */
export function buildRequest(
  method: string,
  path: string,
  headers: [string, string][],
  body?: Uint8Array | string,
): Buffer {
  const names = new Set(headers.map(([n]) => n.toLowerCase()));
  const all: [string, string][] = [...headers];
  if (!names.has("host")) all.unshift(["Host", "127.0.0.1"]);
  if (!names.has("connection")) all.push(["Connection", "close"]);
  const head = `${method} ${path} HTTP/1.1\r\n${all.map(([n, v]) => `${n}: ${v}`).join("\r\n")}\r\n\r\n`;
  const bodyBytes = body === undefined
    ? Buffer.alloc(0)
    : typeof body === "string"
    ? Buffer.from(body, "utf8")
    : Buffer.from(body);
  return Buffer.concat([Buffer.from(head, "latin1"), bodyBytes]);
}
