/** @module Regression tests for the shrunk counterexamples the fuzzer found, kept once fixed. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { buildRequest } from "../support/raw-http.ts";
import { expectHealthy, type Harness, KEY, NORMAL_URL, outbound, send, sendRaw, startHarness } from "./harness.ts";

/** Failures the fuzzer found (shrunk counterexamples), kept once fixed. */
let h: Harness;
const JSON_HEADERS = { "content-type": "application/json", "x-api-key": KEY };

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

function post(body: BodyInit) {
  return send(h, "/chat", { method: "POST", headers: JSON_HEADERS, body });
}

function errorOf(seen: { json?: unknown }): { code: string; message: string } {
  return (seen.json as { error: { code: string; message: string } }).error;
}

describe("fuzz regressions", () => {
  test("CONNECT with an authority-form target gets a JSON 404, not Bun's error page with a stack trace", async () => {
    // Was: `new URL("127.0.0.1:80")` threw inside the error handler, so Bun answered 500 with its
    // development error page (stack frames and source lines of http-app.ts).
    const response = await sendRaw(h, buildRequest("CONNECT", "127.0.0.1:80", [["x-api-key", KEY]]));
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toEqual(["application/json; charset=utf-8"]);
    expect(JSON.parse(response.body.toString()).error.code).toBe("not_found");
    await expectHealthy(h);
  });

  test("a prompt nested 5000 arrays deep is 400, not a 500 from a stack overflow in the validator", async () => {
    // Was: Elysia's ValidationError printed the value with `${value}`, recursing 5000 levels: RangeError, 500.
    const seen = await post(`{"url":${JSON.stringify(NORMAL_URL)},"prompt":${"[".repeat(5000)}${"]".repeat(5000)}}`);
    expect(seen.status).toBe(400);
    expect(errorOf(seen).message).toContain("nested more than 32 levels");
    const url = await post(`{"url":${"[".repeat(5000)}${"]".repeat(5000)}}`);
    expect(url.status).toBe(400);
  });

  test('a field holding [{"toString":null}] is 400 naming the field, not a 500', async () => {
    // Was: Elysia's ValidationError wrote the value with `${value}`, which calls the element's toString: TypeError, 500.
    for (
      const text of [
        '{"url":[{"toString":null}]}',
        '{"url":{"toString":1}}',
        `{"url":${JSON.stringify(NORMAL_URL)},"prompt":{"valueOf":1,"toString":1}}`,
      ]
    ) {
      const seen = await post(text);
      expect(seen.status).toBe(400);
      expect(errorOf(seen).message).toMatch(/^Field "(url|prompt)" must be a string; got an (array|object)$/);
    }
  });

  test("nesting up to 32 levels still gets the usual message naming the field", async () => {
    const seen = await post(`{"url":${JSON.stringify(NORMAL_URL)},"prompt":${"[".repeat(31)}${"]".repeat(31)}}`);
    expect(seen.status).toBe(400);
    expect(errorOf(seen).message).toBe('Field "prompt" must be a string; got an array');
  });

  test("a URL with an empty user name and password (https://:@youtube.com) is refused without an outbound request", async () => {
    // Was: 200, since URL reports an empty username and password for ":@".
    for (
      const url of [
        "https://:@youtube.com/watch?v=GJLlxj_dtq8",
        "https://@www.youtube.com/watch?v=GJLlxj_dtq8",
        "https://:\t@youtu.be/GJLlxj_dtq8",
      ]
    ) {
      const before = outbound(h);
      const seen = await post(JSON.stringify({ url }));
      expect(seen.status).toBe(400);
      expect(outbound(h)).toBe(before);
    }
  });

  test("a body over 64 KiB gets the JSON 413, not Bun's bare one", async () => {
    // Was: Bun's maxRequestBodySize (4 x the limit) answered 413 with no body and no x-request-id.
    const body = new TextEncoder().encode(JSON.stringify({ url: NORMAL_URL, prompt: "p".repeat(65_537) }));
    const seen = await post(body);
    expect(seen.status).toBe(413);
    expect(errorOf(seen).code).toBe("payload_too_large");
  });

  test('a "__proto__" key is an unknown field, even when it holds the other fields', async () => {
    // Was: 200. Elysia applies defaults with Object.assign, which made "__proto__" the body's prototype:
    // the key vanished from the own keys the validator checks, and its fields were read as the body's.
    for (
      const text of [
        `{"url":${JSON.stringify(NORMAL_URL)},"__proto__":[]}`,
        `{"__proto__":{"url":${JSON.stringify(NORMAL_URL)}}}`,
        `{"url":${JSON.stringify(NORMAL_URL)},"\\u005f_proto__":{"prompt":5}}`,
      ]
    ) {
      const before = outbound(h);
      const seen = await post(text);
      expect(seen.status).toBe(400);
      expect(errorOf(seen).message).toStartWith('Unknown field "__proto__"');
      expect(outbound(h)).toBe(before);
    }
  });

  test("a body cut short before the client half-closes is 400 invalid_request or a closed connection, never a 500", async () => {
    // Was (Deno): 500 internal_error, the body's read failing with "BadResource". Bun closes such a connection
    // unanswered, and logged the same failure as an unhandled error.
    const body = JSON.stringify({ url: NORMAL_URL });
    const head = `POST /chat HTTP/1.1\r\nHost: a\r\nX-Api-Key: ${KEY}\r\nContent-Type: application/json\r\n`;
    const cut = [
      `${head}Transfer-Encoding: chunked\r\n\r\nfff\r\n${body}`,
      `${head}Transfer-Encoding: chunked\r\n\r\n${body.length.toString(16)}\r\n${body}\r\n`,
      `${head}Content-Length: ${body.length + 50}\r\n\r\n${body}`,
    ];
    for (const bytes of cut) {
      const seen = await sendRaw(h, new TextEncoder().encode(bytes), { halfClose: true });
      if (seen.status === undefined) continue;
      expect(seen.status).toBe(400);
      expect(JSON.parse(seen.body.toString()).error.code).toBe("invalid_request");
    }
    expect(h.service.output()).not.toContain('"unhandled_error"');
    await expectHealthy(h);
  });
});
