/** @module fast-check arbitraries of raw HTTP requests that `fetch` cannot send. */
import fc from "fast-check";

/** One request written byte for byte on a socket. */
export interface RawCase {
  method: string;
  target: string;
  headers: [string, string][];
  body: Uint8Array;
  /** Our side is closed after writing, so a too-large Content-Length cannot wait forever. */
  halfClose: boolean;
}

const METHODS = [
  "POST",
  "POST",
  "POST",
  "GET",
  "HEAD",
  "PUT",
  "DELETE",
  "PATCH",
  "OPTIONS",
  "TRACE",
  "CONNECT",
  "post",
  "Post",
  "FOO",
  "PROPFIND",
  "M-SEARCH",
  "BREW",
  "POST ",
  "P\u00d6ST",
  "",
];
const TARGETS = [
  "/chat",
  "/chat",
  "/chat",
  "/chat?x=1",
  "/chat/",
  "//chat",
  "/chat/../chat",
  "/./chat",
  "/%63hat",
  "/chat%2f",
  "*",
  "127.0.0.1:80",
  "http://127.0.0.1/chat",
  "http://evil.example/chat",
  "/chat?" + "q".repeat(9000),
  "/" + "a".repeat(9000),
  "chat",
  "/chat\u00ff",
  "/\u00e9",
  "/chat#x",
];
const TYPES = [
  "application/json",
  "application/json; charset=utf-8",
  "text/plain",
  "",
  "application/json\u00ff",
  "application/json, text/plain",
  "multipart/form-data; boundary=--x",
];

/**
 * Requests `fetch` cannot send: odd and lower-case methods, authority and
 * absolute targets, repeated `x-api-key` / `content-type` / `content-length`,
 * lengths shorter, longer, negative or not a number, `transfer-encoding`
 * conflicts, header values with bytes over 0x7f, invalid UTF-8 bodies.
 */
export function rawCaseArb(key: string, validBody: string): fc.Arbitrary<RawCase> {
  const body = fc.oneof(
    { weight: 4, arbitrary: fc.constant(new TextEncoder().encode(validBody)) },
    fc.uint8Array({ maxLength: 64 }),
    fc.constant(new Uint8Array([0x7b, 0x22, 0x75, 0x72, 0x6c, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0xff, 0x22, 0x7d])),
    fc.constant(new Uint8Array(0)),
  );
  const keyHeaders = fc.oneof(
    { weight: 4, arbitrary: fc.constant([["x-api-key", key]] as [string, string][]) },
    fc.constantFrom<[string, string][]>(
      [],
      [["x-api-key", key], ["x-api-key", key]],
      [["x-api-key", key], ["X-API-KEY", "other"]],
      [["x-api-key", `${key}\u00ff`]],
      [["x-api-key", ""]],
      [["X-Api-Key", ` ${key} `]],
    ),
  );
  const typeHeaders = fc.oneof(
    { weight: 4, arbitrary: fc.constant([["content-type", "application/json"]] as [string, string][]) },
    fc.array(fc.constantFrom(...TYPES).map((v) => ["Content-Type", v] as [string, string]), { maxLength: 3 }),
  );
  const length = fc.constantFrom(
    "exact",
    "exact",
    "exact",
    "none",
    "short",
    "long",
    "negative",
    "junk",
    "twice-same",
    "twice-different",
    "huge",
    "chunked",
    "chunked+length",
    "te-gzip",
    "te-identity",
    "chunked-bad",
  );
  const extras = fc.array(
    fc.constantFrom<[string, string]>(
      ["x-request-id", "abc\u00ff"],
      ["x-request-id", "r".repeat(300)],
      ["x-request-id", "ok-id_1"],
      ["host", "evil.example"],
      ["Host", ""],
      ["expect", "100-continue"],
      ["content-encoding", "gzip"],
      ["connection", "keep-alive"],
      ["origin", "https://evil.example"],
      ["x-forwarded-for", "127.0.0.1"],
      ["accept", "text/html"],
      ["x-big", "v".repeat(10_000)],
      ["bad header", "x"],
      ["x-nul", "a\u0000b"],
      ["x-lf", "a\nb"],
    ),
    { maxLength: 3 },
  );
  return fc.record({
    method: fc.constantFrom(...METHODS),
    target: fc.constantFrom(...TARGETS),
    keyHeaders,
    typeHeaders,
    length,
    extras,
    body,
  }).map((r) => {
    const { headers, bytes, halfClose } = frame(r.length, r.body);
    return {
      method: r.method,
      target: r.target,
      headers: [...r.keyHeaders, ...r.typeHeaders, ...r.extras, ...headers],
      body: bytes,
      halfClose,
    };
  });
}

function frame(kind: string, body: Uint8Array): { headers: [string, string][]; bytes: Uint8Array; halfClose: boolean } {
  const n = body.length;
  const chunked = () =>
    new Uint8Array([
      ...new TextEncoder().encode(`${n.toString(16)}\r\n`),
      ...body,
      ...new TextEncoder().encode("\r\n0\r\n\r\n"),
    ]);
  switch (kind) {
    case "none":
      return { headers: [], bytes: body, halfClose: true };
    case "short":
      return { headers: [["content-length", String(Math.max(0, n - 5))]], bytes: body, halfClose: false };
    case "long":
      return { headers: [["content-length", String(n + 50)]], bytes: body, halfClose: true };
    case "negative":
      return { headers: [["content-length", "-1"]], bytes: body, halfClose: true };
    case "junk":
      return { headers: [["content-length", "12abc"]], bytes: body, halfClose: true };
    case "twice-same":
      return { headers: [["content-length", String(n)], ["Content-Length", String(n)]], bytes: body, halfClose: false };
    case "twice-different":
      return {
        headers: [["content-length", String(n)], ["content-length", String(n + 1)]],
        bytes: body,
        halfClose: true,
      };
    case "huge":
      return { headers: [["content-length", "99999999999999999999"]], bytes: body, halfClose: true };
    case "chunked":
      return { headers: [["transfer-encoding", "chunked"]], bytes: chunked(), halfClose: false };
    case "chunked+length":
      return {
        headers: [["transfer-encoding", "chunked"], ["content-length", String(n)]],
        bytes: chunked(),
        halfClose: true,
      };
    case "te-gzip":
      return { headers: [["transfer-encoding", "gzip"]], bytes: body, halfClose: true };
    case "te-identity":
      return {
        headers: [["transfer-encoding", "identity"], ["content-length", String(n)]],
        bytes: body,
        halfClose: true,
      };
    case "chunked-bad":
      return {
        headers: [["transfer-encoding", "chunked"]],
        bytes: new Uint8Array([...new TextEncoder().encode("zz\r\n"), ...body]),
        halfClose: true,
      };
    default:
      return { headers: [["content-length", String(n)]], bytes: body, halfClose: false };
  }
}
