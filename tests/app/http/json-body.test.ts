/** @module Tests of json-body.ts: a body's text with its checks, UTF-8 included, and its JSON object. */
import { describe, expect, test } from "bun:test";
import { parseJsonObject, readJsonText } from "../../../src/app/http/json-body.ts";
import { AppError } from "../../../src/domain/errors.ts";
import { failure } from "../../support/failure.ts";

function post(body: Uint8Array<ArrayBuffer> | string, headers: Record<string, string> = {}): Request {
  const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
  return new Request("http://127.0.0.1/chat", {
    method: "POST",
    headers: { "content-type": "application/json", "content-length": String(bytes.byteLength), ...headers },
    body: bytes,
  });
}

describe("readJsonText", () => {
  test("a UTF-8 body comes back as its text, U+FFFD sent on purpose included", async () => {
    const text = JSON.stringify({ url: "https://youtu.be/GJLlxj_dtq8", prompt: "¿qué es \uFFFD? 😀" });
    expect(await readJsonText(post(text), 65_536)).toBe(text);
  });

  test("a body that is not UTF-8 (Latin-1, a lone continuation byte, a cut sequence) is invalid_request", async () => {
    const prefix = new TextEncoder().encode('{"url":"https://youtu.be/GJLlxj_dtq8","prompt":"caf');
    for (const bad of [[0xe9], [0x80], [0xe2, 0x82], [0xff, 0xfe]]) {
      const body = new Uint8Array([...prefix, ...bad, 0x22, 0x7d]);
      const error = await failure(readJsonText(post(body), 65_536));
      expect(error.code).toBe("invalid_request");
      expect(error.message).toContain("not valid UTF-8");
    }
  });

  test("the content type, then the declared size, are checked before the body is read", async () => {
    expect((await failure(readJsonText(post("{}", { "content-type": "text/plain" }), 10))).code).toBe(
      "unsupported_media_type",
    );
    expect((await failure(readJsonText(post("x".repeat(11)), 10))).code).toBe("payload_too_large");
  });
});

describe("readJsonText on a body cut short", () => {
  test("a read that fails (the client closed its side mid-body) is invalid_request, chunked or with a length", async () => {
    for (const length of [undefined, "200"]) {
      const cut = new Request("http://127.0.0.1/chat", {
        method: "POST",
        headers: { "content-type": "application/json", ...(length ? { "content-length": length } : {}) },
        body: new ReadableStream({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('{"url":'));
            controller.error(new TypeError("connection closed before the message completed"));
          },
        }),
        duplex: "half",
      } as RequestInit);
      const error = await failure(readJsonText(cut, 65_536));
      expect(error).toBeInstanceOf(AppError);
      expect(error.code).toBe("invalid_request");
      expect(error.message).toBe("The request body ended before its declared length; send the whole body");
    }
  });

  test("its own refusals keep their code: a chunked body past the limit is still payload_too_large", async () => {
    const big = new Request("http://127.0.0.1/chat", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: new ReadableStream({ pull: (controller) => controller.enqueue(new Uint8Array(4_096)) }),
      duplex: "half",
    } as RequestInit);
    expect((await failure(readJsonText(big, 10_000))).code).toBe("payload_too_large");
  });
});

describe("readJsonText's time limit", () => {
  test("a body that never arrives ends with request_timeout soon after the limit, others read on unharmed", async () => {
    const stalled = new Request("http://127.0.0.1/chat", {
      method: "POST",
      headers: { "content-type": "application/json", "content-length": "20" },
      body: new ReadableStream({ start: () => {} }),
    });
    const started = performance.now();
    const late = failure(readJsonText(stalled, 65_536, 200));
    expect(await readJsonText(post('{"url":"x"}'), 65_536, 200)).toBe('{"url":"x"}');
    const error = await late;
    const elapsed = performance.now() - started;
    expect(error.code).toBe("request_timeout");
    expect(elapsed).toBeGreaterThanOrEqual(195);
    expect(elapsed).toBeLessThan(600);
  });
});

describe("parseJsonObject", () => {
  test("an object parses; blank, broken, other values and an own __proto__ are invalid_request", () => {
    expect(parseJsonObject('{"url":"x"}')).toEqual({ url: "x" });
    for (
      const [text, message] of [
        [" \n", "The request body is empty"],
        ["{", "not valid JSON"],
        ["null", "must be a JSON object; got null"],
        ['"x"', "must be a JSON object; got a string"],
        ['{"__proto__":{"url":"x"}}', "Unknown field"],
      ] as const
    ) {
      let thrown: unknown;
      try {
        parseJsonObject(text);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(AppError);
      expect((thrown as AppError).message).toContain(message);
    }
  });
});
