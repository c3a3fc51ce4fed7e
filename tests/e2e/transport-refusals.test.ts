/** @module End-to-end tests pinning each runtime's answer to requests its HTTP parser refuses. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rawRequest } from "../support/raw-http.ts";
import { type Harness, KEY, startHarness } from "../fuzz/harness.ts";
import { targetFromEnv } from "../support/service/process.ts";

/**
 * Issue 15 item 4: requests the runtime's own HTTP parser refuses before the
 * app sees them get the runtime's bare answer (or none). Nothing in Bun or
 * Deno lets the app answer these (docs/decisions.md, "Transport-level
 * refusals"). This pins what each runtime does, so a runtime upgrade that
 * changes it is noticed, and checks the cases the app does see get the JSON body.
 */
type Outcome = { status: number; json?: string } | "closed";
const END = "Connection: close\r\n\r\n";
const CASES: { name: string; bytes: string; bun: Outcome; deno: Outcome }[] = [
  {
    name: "OPTIONS * (asterisk form)",
    bytes: `OPTIONS * HTTP/1.1\r\nHost: a\r\n${END}`,
    bun: { status: 400 },
    deno: { status: 404, json: "not_found" },
  },
  {
    name: "a 100 KB header",
    bytes: `GET /chat HTTP/1.1\r\nHost: a\r\nX-Big: ${"a".repeat(100_000)}\r\n${END}`,
    bun: { status: 431 },
    deno: { status: 400 },
  },
  {
    name: "a 100 KB request target",
    bytes: `GET /${"a".repeat(100_000)} HTTP/1.1\r\nHost: a\r\n${END}`,
    bun: { status: 431 },
    deno: { status: 400 },
  },
  {
    name: "malformed chunked framing",
    bytes:
      `POST /chat HTTP/1.1\r\nHost: a\r\nX-Api-Key: ${KEY}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n${END}zz\r\n{}\r\n0\r\n\r\n`,
    bun: { status: 400 },
    deno: "closed",
  },
  {
    name: "Content-Length that is not a number",
    bytes: `POST /chat HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: abc\r\n${END}{}`,
    bun: { status: 400 },
    deno: { status: 400 },
  },
  {
    name: "Content-Length with Transfer-Encoding",
    bytes:
      `POST /chat HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n${END}2\r\n{}\r\n0\r\n\r\n`,
    bun: { status: 400 },
    deno: { status: 400 },
  },
  { name: "a request line that is not HTTP", bytes: "HELLO\r\n\r\n", bun: { status: 400 }, deno: { status: 400 } },
  { name: "HTTP/9.9", bytes: `GET /chat HTTP/9.9\r\nHost: a\r\n${END}`, bun: { status: 505 }, deno: { status: 400 } },
  {
    name: "a header name with a space",
    bytes: `GET /chat HTTP/1.1\r\nHost: a\r\nBad Header: x\r\n${END}`,
    bun: { status: 400 },
    deno: { status: 400 },
  },
  {
    name: "an unknown method token",
    bytes: `FROB /chat HTTP/1.1\r\nHost: a\r\n${END}`,
    bun: "closed",
    deno: { status: 405, json: "method_not_allowed" },
  },
];

const TARGET = targetFromEnv();
let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

describe(`requests the runtime's parser refuses (${TARGET})`, () => {
  for (const { name, bytes, ...outcomes } of CASES) {
    const expected = TARGET === "deno" ? outcomes.deno : outcomes.bun;
    test(`${name}: ${expected === "closed" ? "closed without an answer" : `${expected.status} ${expected.json ?? "bare"}`}`, async () => {
      const seen = await rawRequest(h.port, bytes, { timeoutMs: 5_000 });
      expect(seen.timedOut).toBe(false);
      if (expected === "closed") {
        expect(seen.status).toBeUndefined();
        return;
      }
      expect(seen.status).toBe(expected.status);
      if (expected.json) expect(JSON.parse(seen.body.toString("utf8")).error.code).toBe(expected.json);
      else expect(seen.body.length).toBe(0);
    });
  }

  test("the service is still healthy after all of them", async () => {
    const response = await fetch(`${h.service.url}/swagger/json`);
    expect(response.status).toBe(200);
  });
});
