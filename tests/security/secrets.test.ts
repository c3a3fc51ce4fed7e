/** @module Security tests that keys, stacks and upstream bodies never reach callers or the logs. */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import type { Endpoint, Fault } from "../support/fake/youtube.ts";
import { checkContract, GROQ_KEY, type Harness, KEY, NORMAL_URL, startHarness } from "../fuzz/harness.ts";
import { requestLogLines } from "../support/request-log-lines.ts";

/**
 * Secrets and upstream bodies never reach a caller or the logs: the caller's
 * key (valid or not), the Groq key, and text YouTube or the LLM sent in an
 * error. Every error body is the contract's, with no stack trace.
 */
const SECOND_KEY = "second-key-a81f5c3e9d";
const WRONG_KEYS = ["wrong-key-0c6b2f9e47", `${KEY}x`, KEY.slice(0, -1), "gsk_wrong_key_in_api_slot", GROQ_KEY];
const CANARY = "UPSTREAM-CANARY-3e7d91";
const STACK = /\bat \S+ \(|\bat \S+:\d+:\d+|\.ts:\d+|node_modules|\/work\//;
let h: Harness;

beforeAll(async () => {
  h = await startHarness({
    API_KEYS: `${KEY},${SECOND_KEY}`,
    TRANSCRIPT_CACHE_TTL_MS: "0",
    ANSWER_CACHE_TTL_MS: "0",
    LLM_MAX_RETRIES: "0",
    LLM_RETRY_BUDGET_MS: "0",
  });
});
afterAll(async () => {
  await h?.close();
});
beforeEach(() => {
  h.youtube.reset();
  h.llm.reset();
});

async function chat(body: unknown, key = KEY): Promise<{ status: number; text: string; response: Response }> {
  const response = await fetch(`${h.service.url}/chat`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": key },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await response.text();
  checkContract({ status: response.status, headers: response.headers, text }, false);
  expect(text).not.toMatch(STACK);
  return { status: response.status, text, response };
}

/**
 * The service's output once the request-log line of `response` is in it. Lines are
 * written in order, a timer turn after their responses: waiting for the last request's
 * line means every earlier line is there too, so a "not in the logs" check sees them all.
 */
async function outputThrough(response: Response): Promise<string> {
  expect(await requestLogLines(h.service, response)).toHaveLength(1);
  return h.service.output();
}

describe("keys are never logged or echoed", () => {
  test("neither valid nor invalid keys appear in the service's output or in any response", async () => {
    for (const key of [KEY, SECOND_KEY]) {
      expect((await chat({ url: NORMAL_URL, prompt: `hello ${key.length}` }, key)).status).toBe(200);
    }
    for (const key of WRONG_KEYS) {
      const seen = await chat({ url: NORMAL_URL }, key);
      expect(seen.status).toBe(401);
      expect(seen.text).not.toContain(key);
    }
    // A key sent where a request id or a URL goes is not a key, but it must not be logged as one either.
    const last = await chat({ url: `https://www.youtube.com/watch?v=GJLlxj_dtq8&k=${KEY}` }, "nope");
    const output = await outputThrough(last.response);
    for (const secret of [KEY, SECOND_KEY, GROQ_KEY, ...WRONG_KEYS]) expect(output).not.toContain(secret);
    expect(output).toContain('"status":401');
  });
});

describe("error bodies carry no stack, upstream body or secret", () => {
  const youtubeFaults: [Endpoint, Fault][] = [
    ["player", { kind: "status", status: 500, body: `Internal error ${CANARY} at /srv/youtube.js:12:3` }],
    ["player", { kind: "status", status: 503, body: `<html>${CANARY}</html>` }],
    ["player", { kind: "status", status: 429, body: CANARY }],
    ["player", { kind: "status", status: 404, body: CANARY }],
    ["player", { kind: "body", body: `{"playabilityStatus": ${CANARY}` }],
    ["caption", { kind: "status", status: 500, body: CANARY }],
    ["caption", { kind: "body", body: `<transcript>${CANARY}`, contentType: "text/xml" }],
    ["caption", { kind: "status", status: 403, body: CANARY }],
  ];

  test("YouTube errors whose bodies hold a canary string: the canary reaches neither the caller nor the logs", async () => {
    let last: Response | undefined;
    for (const [endpoint, fault] of youtubeFaults) {
      h.youtube.reset();
      h.youtube.setFault(endpoint, fault);
      // The watch page is YouTube's too: it fails the same way, so no fallback hides the fault.
      if (endpoint === "player") h.youtube.setFault("watch", { kind: "status", status: 500, body: CANARY });
      const seen = await chat({ url: NORMAL_URL, prompt: `fault ${endpoint} ${JSON.stringify(fault).length}` });
      expect(seen.status, `${endpoint} ${JSON.stringify(fault)}`).not.toBe(200);
      expect(seen.text, `${endpoint} ${JSON.stringify(fault)}`).not.toContain(CANARY);
      last = seen.response;
    }
    expect(await outputThrough(last!)).not.toContain(CANARY);
  });

  test("YouTube's own words reach a caller only as video_unplayable's reason, as one short line", async () => {
    const long = `${CANARY}\n\u0000${"x".repeat(5_000)}`;
    for (
      const playabilityStatus of [{ status: long }, { status: "UNPLAYABLE", reason: long }, {
        status: "UNPLAYABLE",
        reason: "",
        errorScreen: { playerErrorMessageRenderer: { subreason: { runs: [{ text: long }] } } },
      }]
    ) {
      h.youtube.setFault("player", {
        kind: "body",
        body: JSON.stringify({ playabilityStatus, videoDetails: { videoId: "GJLlxj_dtq8" } }),
      });
      const seen = await chat({ url: NORMAL_URL, prompt: `unplayable ${JSON.stringify(playabilityStatus).length}` });
      expect(seen.status).toBe(422);
      const message = JSON.parse(seen.text).error.message as string;
      expect(message).toStartWith("YouTube will not play video GJLlxj_dtq8: ");
      expect(message.length).toBeLessThan(500);
      // deno-lint-ignore no-control-regex -- the control characters are what is looked for
      expect(message).not.toMatch(/[\u0000-\u001f]/);
    }
  });

  test("LLM errors whose bodies quote the Groq key: the key reaches neither the caller nor the logs", async () => {
    const replies = [
      {
        status: 500,
        body: { error: { message: `Internal error for key ${GROQ_KEY} ${CANARY}`, type: "server_error" } },
      },
      {
        status: 401,
        body: {
          error: { message: `Invalid API Key ${GROQ_KEY}`, type: "invalid_request_error", code: "invalid_api_key" },
        },
      },
      {
        status: 400,
        body: { error: { message: `Bad request from ${GROQ_KEY}: ${CANARY}`, type: "invalid_request_error" } },
      },
      {
        status: 429,
        body: { error: { message: `Rate limit for ${GROQ_KEY} ${CANARY}` } },
        headers: { "retry-after": "0" },
      },
      { status: 200, body: { choices: [], error: `${GROQ_KEY} ${CANARY}` } },
      { status: 200, body: `not json ${GROQ_KEY} ${CANARY}` },
    ];
    let last: Response | undefined;
    for (const reply of replies) {
      h.llm.respondWith(() => reply);
      const seen = await chat({
        url: NORMAL_URL,
        prompt: `llm fault ${reply.status} ${JSON.stringify(reply.body).length}`,
      });
      expect(seen.status, JSON.stringify(reply)).not.toBe(200);
      expect(seen.text).not.toContain(GROQ_KEY);
      expect(seen.text).not.toContain(CANARY);
      last = seen.response;
    }
    const output = await outputThrough(last!);
    expect(output).not.toContain(GROQ_KEY);
    expect(output).not.toContain(CANARY);
  });

  test("the service sends its Groq key to the configured LLM only, as a bearer token", async () => {
    expect((await chat({ url: NORMAL_URL, prompt: "who gets the key?" })).status).toBe(200);
    expect(h.llm.calls.length).toBeGreaterThan(0);
    for (const call of h.llm.calls) expect(call.authorization).toBe(`Bearer ${GROQ_KEY}`);
    for (const seen of h.youtube.seen) expect(JSON.stringify(seen)).not.toContain(GROQ_KEY);
  });
});
