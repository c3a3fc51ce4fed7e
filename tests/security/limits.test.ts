/** @module Security tests that the body limit and the 500 code point prompt cut hold end to end. */
// deno-lint-ignore-file no-explicit-any -- reads JSON whose shape is checked field by field where it is used
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { connect } from "node:net";
import { buildRequest } from "../support/raw-http.ts";
import { checkContract, type Harness, KEY, NORMAL_URL, outbound, startHarness } from "../fuzz/harness.ts";

/** The body limit (16 KiB by default, MAX_BODY_BYTES) and the 500 code point prompt cut hold end to end. */
const LIMIT = 16_384;
let h: Harness;

beforeAll(async () => {
  h = await startHarness({ ANSWER_CACHE_TTL_MS: "0" });
});
afterAll(async () => {
  await h?.close();
});
beforeEach(() => {
  h.llm.reset();
});

/** A body of exactly `size` bytes: the URL and a prompt padded with `p`. */
function bodyOf(size: number): string {
  const empty = JSON.stringify({ url: NORMAL_URL, prompt: "" }).length;
  return JSON.stringify({ url: NORMAL_URL, prompt: "p".repeat(size - empty) });
}

async function post(h: Harness, body: BodyInit): Promise<{ status: number; json: any }> {
  const response = await fetch(`${h.service.url}/chat`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": KEY },
    body,
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  checkContract({ status: response.status, headers: response.headers, text }, false);
  return { status: response.status, json: JSON.parse(text) };
}

/**
 * Writes `head` and then `chunks` on a raw connection without ever finishing
 * the body, and resolves with the status line of the first response (or
 * "closed"/"timeout"): the server must answer without waiting for an end.
 */
function answerBeforeEnd(port: number, head: Buffer, chunks: Buffer[], timeoutMs = 3_000): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    let data = "";
    const done = (result: string) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(() => done("timeout"), timeoutMs);
    socket.on("connect", () => {
      socket.write(head);
      for (const chunk of chunks) socket.write(chunk);
    });
    socket.on("data", (chunk) => {
      data += chunk.toString("latin1");
      const match = /^HTTP\/1\.1 (\d{3})/.exec(data);
      if (match && data.includes("\r\n\r\n")) done(match[1]!);
    });
    socket.on("error", () => done("closed"));
    socket.on("close", () => done("closed"));
  });
}

describe("the body limit holds", () => {
  test("a body of exactly the limit is served; one byte more is 413, before any outbound request", async () => {
    expect((await post(h, bodyOf(LIMIT))).status).toBe(200);
    const before = outbound(h);
    const over = await post(h, bodyOf(LIMIT + 1));
    expect(over.status).toBe(413);
    expect(over.json.error.code).toBe("payload_too_large");
    expect(outbound(h)).toBe(before);
  });

  test("a declared Content-Length over the limit is refused at once, without waiting for the body", async () => {
    const head = buildRequest("POST", "/chat", [["x-api-key", KEY], ["content-type", "application/json"], [
      "content-length",
      String(10 * 1024 ** 3),
    ]]);
    expect(await answerBeforeEnd(h.port, head, [Buffer.from('{"url":')])).toBe("413");
  });

  test("a chunked body that grows past the limit is refused once it does, without waiting for its end", async () => {
    const head = buildRequest("POST", "/chat", [["x-api-key", KEY], ["content-type", "application/json"], [
      "transfer-encoding",
      "chunked",
    ]]);
    const chunk = Buffer.from(`1000\r\n${"x".repeat(0x1000)}\r\n`, "latin1");
    expect(await answerBeforeEnd(h.port, head, Array.from({ length: 6 }, () => chunk))).toBe("413");
  });

  test("MAX_BODY_BYTES moves the limit", async () => {
    const small = await startHarness({ MAX_BODY_BYTES: "2048" });
    try {
      expect((await post(small, bodyOf(2048))).status).toBe(200);
      expect((await post(small, bodyOf(2049))).status).toBe(413);
    } finally {
      await small.close();
    }
  });
});

describe("the prompt cut holds", () => {
  const cases: [string, string, string][] = [
    ["ASCII", "a".repeat(700), "a".repeat(500)],
    ["an astral character straddling the cut stays whole", `${"a".repeat(499)}😀tail`, `${"a".repeat(499)}😀`],
    ["a combining sequence is cut by code points", `${"e".repeat(499)}e\u0301tail`, `${"e".repeat(499)}e`],
    ["Devanagari", "न".repeat(600), "न".repeat(500)],
    ["the biggest prompt the body limit lets through", "q".repeat(LIMIT - 100), "q".repeat(500)],
  ];
  for (const [name, prompt, cut] of cases) {
    test(`${name}: echoed and sent to the model as the first 500 code points`, async () => {
      const seen = await post(h, JSON.stringify({ url: NORMAL_URL, prompt }));
      expect(seen.status).toBe(200);
      expect(seen.json.prompt).toBe(cut);
      expect(h.llm.calls.length).toBeGreaterThan(0);
      const sent = h.llm.calls.map((call) => call.text).join("\n");
      expect(sent).toContain(cut);
      expect(sent).not.toContain(Array.from(prompt).slice(0, 501).join(""));
    });
  }
});
