/** @module End-to-end tests of LLM failures with a fake LLM: 429 waits, 5xx retries and hangs. */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { ANSWERS } from "../support/fake/llm.ts";
import { watchUrl } from "../support/fixtures.ts";
import { type LlmHarness, startLlmHarness } from "./llm-harness.ts";

let h: LlmHarness;
beforeAll(async () => {
  h = await startLlmHarness({
    ANSWER_CACHE_TTL_MS: "0",
    LLM_TIMEOUT_MS: "1500",
    LLM_MAX_RETRIES: "2",
    LLM_RETRY_BUDGET_MS: "5000",
  });
});
afterAll(() => h?.close());
beforeEach(() => {
  h.youtube.reset();
  h.llm.reset();
});

async function timed(
  body: unknown,
): Promise<{ response: Response; json: { error?: { code: string; message: string } }; ms: number }> {
  const started = performance.now();
  const response = await h.chat(body);
  return { response, json: await response.json(), ms: performance.now() - started };
}

describe("POST /chat when the LLM fails (fake LLM)", () => {
  test("a 429 with a short retry-after is retried after that wait and the request succeeds", async () => {
    h.llm.respondWith((
      _,
      index,
    ) => (index === 0 ? { status: 429, headers: { "retry-after": "1" } } : { content: ANSWERS.en! }));
    const { response, json, ms } = await timed({ url: watchUrl("normal") });
    expect(response.status).toBe(200);
    expect(json).toMatchObject({ output: ANSWERS.en! });
    expect(h.llm.calls).toHaveLength(2);
    expect(h.llm.calls[1]!.startedAt - h.llm.calls[0]!.startedAt).toBeGreaterThanOrEqual(950);
    expect(ms).toBeLessThan(4000);
  });

  test("a 429 whose retry-after outlasts the request's deadline ends at once with 503 upstream_blocked and Retry-After", async () => {
    h.llm.respondWith(() => ({
      status: 429,
      headers: { "retry-after": "600" },
      body: { error: { message: "Rate limit reached for model in organization org_secret" } },
    }));
    const { response, json, ms } = await timed({ url: watchUrl("normal") });
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("600");
    expect(json.error?.code).toBe("upstream_blocked");
    expect(json.error?.message).not.toContain("org_secret");
    expect(h.llm.calls).toHaveLength(1);
    expect(ms).toBeLessThan(1500);
  });

  test("a 500 on every try gives 502 upstream_error after the bounded retries", async () => {
    h.llm.respondWith(() => ({ status: 500, body: { error: { message: "internal detail xyz" } } }));
    const { response, json } = await timed({ url: watchUrl("normal") });
    expect(response.status).toBe(502);
    expect(json.error?.code).toBe("upstream_error");
    expect(json.error?.message).not.toContain("xyz");
    expect(h.llm.calls).toHaveLength(3);
  });

  test("a model that hangs gives 504 upstream_timeout within LLM_TIMEOUT_MS, without a retry", async () => {
    h.llm.respondWith(() => ({ hang: true }));
    const { response, json, ms } = await timed({ url: watchUrl("normal") });
    expect(response.status).toBe(504);
    expect(json.error?.code).toBe("upstream_timeout");
    expect(ms).toBeGreaterThanOrEqual(1400);
    expect(ms).toBeLessThan(3500);
    expect(h.llm.calls).toHaveLength(1);
  });
});
