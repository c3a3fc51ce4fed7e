/** @module End-to-end tests on Groq's free-plan limits, time-scaled: long videos, 429s, overload and paid plans. */
import { gptOss20bFreePlan } from "../support/fake/provider-limits.ts";
import { isSearchCall } from "../support/fake/llm.ts";
import { afterEach, describe, expect, test } from "bun:test";
import { VIDEOS, watchUrl } from "../support/fixtures.ts";
import { captionXml, generateCues, NEEDLE } from "../support/long-transcript.ts";
import { requestLogLines } from "../support/request-log-lines.ts";
import { postChat, startService } from "../support/service/process.ts";
import { API_KEY, type LlmHarness, startLlmHarness } from "./llm-harness.ts";

/**
 * Groq's free plan for openai/gpt-oss-20b (8,000 tokens and 30 requests a
 * minute), played ten times faster: the fake's window and the service's are
 * 6 s, and the request's deadline 12 s instead of 120 s. Everything else is
 * at its default.
 */
const WINDOW_MS = 6_000;
const FREE = gptOss20bFreePlan(WINDOW_MS);
const SCALED = { TEST_LLM_BUDGET_WINDOW_MS: String(WINDOW_MS), REQUEST_TIMEOUT_MS: "12000", ANSWER_CACHE_TTL_MS: "0" };

let h: LlmHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function summarise(minutes: number) {
  h = await startLlmHarness(SCALED, { limits: FREE, model: "default" });
  const cues = generateCues(minutes * 60);
  h.youtube.setCaption(VIDEOS.normal.id, captionXml(cues));
  const started = performance.now();
  const response = await h.chat({ url: watchUrl("normal") });
  const ms = performance.now() - started;
  const [line] = await requestLogLines(h.service, response);
  return {
    response,
    ms,
    cues,
    line: line!,
    sent: h.llm.calls.filter((c) => !c.refused),
    refused: h.llm.calls.filter((c) => c.refused),
  };
}

describe("POST /chat on Groq's free plan (time scaled by 10)", () => {
  for (const minutes of [30, 60, 180]) {
    test(`a ${minutes}-minute summary is a 200 within the deadline, reads the first and last passages, and is never refused`, async () => {
      const { response, ms, cues, line, sent, refused } = await summarise(minutes);
      expect(response.status).toBe(200);
      expect(ms).toBeLessThan(12_000);
      expect(refused.map((c) => c.refused)).toEqual([]);
      // gpt-oss reasons: every call had room for its reasoning besides its answer.
      expect(sent.map((c) => c.finishReason).filter((reason) => reason !== "stop")).toEqual([]);
      expect(sent.every((c) => c.reasoningTokens! > 0)).toBe(true);
      expect(sent.some((c) => c.text.includes(cues[0]!.text))).toBe(true);
      expect(sent.some((c) => c.text.includes(cues.at(-1)!.text))).toBe(true);
      expect(line.plan).toBeString();
      expect(line.coverage).toBeGreaterThan(minutes <= 30 ? 0.99 : 0.2);
      expect(response.headers.get("server-timing")).toContain(`plan;desc=${line.plan}`);
    });
  }

  test("a question whose answer is in the last minutes of a one-hour video is answered from those minutes", async () => {
    h = await startLlmHarness(SCALED, { limits: FREE, model: "default" });
    h.youtube.setCaption(VIDEOS.normal.id, captionXml(generateCues(3600, { needleAt: 3600 - 120 })));
    const response = await h.chat({ url: watchUrl("normal"), prompt: "What is the secret ingredient of the recipe?" });
    expect(response.status).toBe(200);
    // The search call, then the answer's one call, both within the free plan's minute (the fake refuses none).
    expect(h.llm.calls).toHaveLength(2);
    expect(h.llm.calls.filter((call) => call.refused)).toEqual([]);
    expect(isSearchCall(h.llm.calls[0]!)).toBe(true);
    expect(h.llm.calls[1]!.text).toContain(NEEDLE);
  });

  test("a 429 from another user of the key is waited out, not failed", async () => {
    h = await startLlmHarness(SCALED, { limits: FREE, model: "default" });
    h.llm.respondWith((
      _,
      index,
    ) => (index === 0
      ? {
        status: 429,
        headers: { "retry-after": "1" },
        body: {
          error: {
            message:
              "Rate limit reached for model `openai/gpt-oss-20b` on tokens per minute (TPM): Limit 8000, Used 7900, Requested 1500. Please try again in 1s.",
          },
        },
      }
      : { content: "The video reviews a tablet [0:00]." })
    );
    const response = await h.chat({ url: watchUrl("normal") });
    expect(response.status).toBe(200);
    expect(h.llm.calls).toHaveLength(2);
  });

  test("more long summaries at once than the budget can serve: the rest are refused at once with overloaded and a Retry-After", async () => {
    h = await startLlmHarness(SCALED, { limits: FREE, model: "default" });
    h.youtube.setCaption(VIDEOS.normal.id, captionXml(generateCues(3 * 3600)));
    const asks = ["en", "es", "pt", "ru", "hi"].flatMap((language) =>
      ["text", "markdown"].map((output_format) => ({ url: watchUrl("normal"), language, output_format }))
    );
    const results = await Promise.all(asks.map(async (body) => {
      const started = performance.now();
      const response = await h!.chat(body);
      return {
        status: response.status,
        ms: performance.now() - started,
        retryAfter: response.headers.get("retry-after"),
        code: response.status === 200 ? "" : (await response.json()).error.code,
      };
    }));
    const served = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status !== 200);
    expect(served.length).toBeGreaterThanOrEqual(1);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    for (const r of served) expect(r.ms).toBeLessThan(12_000);
    for (const r of refused) {
      expect([r.status, r.code]).toEqual([503, "overloaded"]);
      expect(Number(r.retryAfter)).toBeGreaterThanOrEqual(1);
      // At once: before the first summary could have finished, not after waiting in vain.
      expect(r.ms).toBeLessThan(3_000);
    }
    expect(h.llm.calls.filter((c) => c.refused)).toEqual([]);
  });

  test("on a paid plan's figures a one-hour video is read in one call", async () => {
    const paid = { tokensPerWindow: 300_000, requestsPerWindow: 1_000, windowMs: WINDOW_MS };
    h = await startLlmHarness({
      ...SCALED,
      LLM_TOKENS_PER_MINUTE: "300000",
      LLM_REQUESTS_PER_MINUTE: "1000",
    }, { limits: paid, model: "default" });
    h.youtube.setCaption(VIDEOS.normal.id, captionXml(generateCues(3600)));
    const response = await h.chat({ url: watchUrl("normal") });
    expect(response.status).toBe(200);
    expect(h.llm.calls).toHaveLength(1);
    expect((await requestLogLines(h.service, response))[0]!.plan).toBe("one-call");
  });
});

describe.skipIf(!process.env.TEST_REDIS_URL)("two instances sharing Redis on one free-plan key", () => {
  test("six concurrent questions across them are all 200, and the provider never had to refuse a call", async () => {
    h = await startLlmHarness({
      ...SCALED,
      REDIS_URL: process.env.TEST_REDIS_URL!,
      REDIS_KEY_PREFIX: `free-${crypto.randomUUID()}:`,
    }, { limits: FREE, model: "default" });
    h.youtube.setCaption(VIDEOS.normal.id, captionXml(generateCues(1800)));
    const prefix = `free-${crypto.randomUUID()}:`;
    const env = {
      API_KEYS: API_KEY,
      YOUTUBE_BASE_URL: h.youtube.origin,
      GROQ_API_KEY: "gsk_fake",
      GROQ_BASE_URL: h.llm.baseUrl,
      REDIS_URL: process.env.TEST_REDIS_URL!,
      REDIS_KEY_PREFIX: prefix,
      ...SCALED,
    };
    const [a, b] = await Promise.all([startService(env), startService(env)]);
    try {
      const topics = ["battery", "keyboard", "screen", "camera", "speakers", "price"];
      const responses = await Promise.all(
        topics.map((topic, i) =>
          postChat((i % 2 ? a : b).url, {
            url: watchUrl("normal"),
            prompt: `What does the reviewer say about the ${topic}?`,
          }, { "x-api-key": API_KEY })
        ),
      );
      const bodies = await Promise.all(responses.map((r) => r.text()));
      expect(responses.map((r, i) => `${r.status} ${r.status === 200 ? "" : bodies[i]}`.trim())).toEqual([
        "200",
        "200",
        "200",
        "200",
        "200",
        "200",
      ]);
      expect(h.llm.calls.filter((c) => c.refused)).toEqual([]);
      // Each question's search call, then its answer's.
      expect(h.llm.calls.filter((c) => !c.refused)).toHaveLength(12);
      expect(h.llm.calls.filter(isSearchCall)).toHaveLength(6);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });
});
