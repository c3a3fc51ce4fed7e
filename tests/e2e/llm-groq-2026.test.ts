/** @module End-to-end tests against a Groq as it serves in late 2026: default model, reasoning, retired model, day limits. */
import { afterEach, describe, expect, test } from "bun:test";
import { VIDEOS, watchUrl } from "../support/fixtures.ts";
import { captionXml, generateCues } from "../support/long-transcript.ts";
import { type FakeLlm, startFakeLlm } from "../support/fake/llm.ts";
import { type FakeYoutube, startFakeYoutube } from "../support/fake/youtube.ts";
import { gptOss20bFreePlan } from "../support/fake/provider-limits.ts";
import { requestLogLines } from "../support/request-log-lines.ts";
import { postChat, type RunningService, startService } from "../support/service/process.ts";

const API_KEY = "e2e-groq-2026-key-0123";
const GROQ_KEY = "gsk_fake_groq_2026_secret";
const WINDOW_MS = 6_000;
const SCALED = { TEST_LLM_BUDGET_WINDOW_MS: String(WINDOW_MS), REQUEST_TIMEOUT_MS: "12000", ANSWER_CACHE_TTL_MS: "0" };

const started: { services: RunningService[]; llms: FakeLlm[]; youtube?: FakeYoutube } = { services: [], llms: [] };
afterEach(async () => {
  await Promise.all(started.services.splice(0).map((s) => s.stop()));
  await Promise.all(started.llms.splice(0).map((l) => l.close()));
  await started.youtube?.close();
  started.youtube = undefined;
});

function fakes(options: Parameters<typeof startFakeLlm>[0] = {}) {
  started.youtube = startFakeYoutube();
  const llm = startFakeLlm(options);
  started.llms.push(llm);
  return { youtube: started.youtube, llm };
}

/** The service with Groq's settings as the README gives them: a key and nothing else about the model. */
async function service(llm: FakeLlm, env: Record<string, string> = {}) {
  const running = await startService({
    API_KEYS: API_KEY,
    YOUTUBE_BASE_URL: started.youtube!.origin,
    GROQ_API_KEY: GROQ_KEY,
    GROQ_BASE_URL: llm.baseUrl,
    ...env,
  });
  started.services.push(running);
  return running;
}

const chat = (s: RunningService, body: unknown) => postChat(s.url, body, { "x-api-key": API_KEY });

describe("the default settings on today's Groq (gpt-oss-20b, which reasons)", () => {
  test("a question and a summary are answered: low effort, no reasoning in the answer, no call cut short", async () => {
    const { llm } = fakes();
    const s = await service(llm);
    for (const prompt of ["What does the reviewer think of the keyboard?", "summary"]) {
      const response = await chat(s, { url: watchUrl("normal"), prompt });
      const body = await response.json();
      expect(response.status).toBe(200);
      expect(body.output).not.toContain("We need to answer");
    }
    expect(llm.calls.map((c) => c.model)).toEqual(["openai/gpt-oss-20b", "openai/gpt-oss-20b"]);
    for (const call of llm.calls) {
      expect(call.reasoning).toEqual({ effort: "low", include: false, format: undefined });
      expect(call.finishReason).toBe("stop");
      expect(call.reasoningTokens).toBeGreaterThan(0);
    }
    expect(s.output()).toContain("groq:openai/gpt-oss-20b (context 131,072 tokens, from the endpoint's /models)");
  });

  test("LLM_REASONING_EFFORT is the effort asked for; a bad value stops start-up naming it", async () => {
    const { llm } = fakes();
    const s = await service(llm, { LLM_REASONING_EFFORT: "medium" });
    expect((await chat(s, { url: watchUrl("normal") })).status).toBe(200);
    expect(llm.calls[0]!.reasoning.effort).toBe("medium");
    const refused = await startService({ API_KEYS: API_KEY, LLM_REASONING_EFFORT: "none" }).catch((e) => e);
    expect(String(refused)).toContain("LLM_REASONING_EFFORT must be one of low, medium, high");
  });

  test("an answer whose reasoning took all of max_tokens is asked again with more room, and answered", async () => {
    const { llm } = fakes();
    llm.respondWith((_, index) => ({
      content: "The reviewer likes the keyboard [2:31].",
      reasoningTokens: index === 0 ? 5_000 : 300,
    }));
    const s = await service(llm);
    const response = await chat(s, { url: watchUrl("normal"), prompt: "What about the keyboard?" });
    expect(response.status).toBe(200);
    expect((await response.json()).output).toContain("keyboard");
    expect(llm.calls.map((c) => c.finishReason)).toEqual(["length", "stop"]);
    expect(llm.calls[1]!.maxTokens!).toBeGreaterThan(llm.calls[0]!.maxTokens!);
    expect((await requestLogLines(s, response))[0]!.llm_calls).toBe(2);
  });

  test("the same for a streamed answer: nothing of the cut call reaches the stream", async () => {
    const { llm } = fakes();
    llm.respondWith((_, index) => ({
      content: "The reviewer likes the keyboard [2:31].",
      reasoningTokens: index ? 200 : 9_000,
    }));
    const s = await service(llm);
    const response = await postChat(s.url, { url: watchUrl("normal"), prompt: "What about the keyboard?" }, {
      "x-api-key": API_KEY,
      accept: "text/event-stream",
    });
    const text = await response.text();
    expect(text).toContain("event: done");
    expect(text).not.toContain("event: error");
    expect(llm.calls.map((c) => c.finishReason)).toEqual(["length", "stop"]);
  });

  test("qwen3.8 is asked not to think aloud, and a <think> block it sends anyway never reaches the answer", async () => {
    const { llm } = fakes();
    llm.respondWith(() => ({
      content: "<think>\nLet me reason about it.\n</think>\n\nThe reviewer likes the keyboard [2:31].",
    }));
    const s = await service(llm, { GROQ_MODEL: "qwen/qwen3.8-27b" });
    const response = await chat(s, { url: watchUrl("normal"), prompt: "What about the keyboard?" });
    const body = await response.json();
    expect(response.status).toBe(200);
    expect(body.output).toStartWith("The reviewer likes the keyboard");
    expect(body.output).not.toContain("reason");
    expect(llm.calls[0]!.reasoning).toEqual({ effort: "none", include: undefined, format: "hidden" });
    const streamed = await postChat(s.url, { url: watchUrl("normal"), prompt: "And the screen?" }, {
      "x-api-key": API_KEY,
      accept: "text/event-stream",
    });
    expect(await streamed.text()).not.toContain("think");
  });
});

describe("a retired model, said plainly", () => {
  test("GROQ_MODEL=llama-3.1-8b-instant: start-up warns, and a request is a 502 naming the model and the setting at once", async () => {
    const { llm } = fakes();
    const s = await service(llm, { GROQ_MODEL: "llama-3.1-8b-instant" });
    expect(s.output()).toContain("Warning: the language model endpoint does not serve the model");
    expect(s.output()).toContain("openai/gpt-oss-20b");
    const began = performance.now();
    const response = await chat(s, { url: watchUrl("normal") });
    const ms = performance.now() - began;
    const body = await response.json();
    expect([response.status, body.error.code]).toEqual([502, "upstream_error"]);
    expect(body.error.message).toContain('"llama-3.1-8b-instant"');
    expect(body.error.message).toContain("GROQ_MODEL");
    expect(body.error.message).toContain("retired it on 2026-08-16");
    expect(body.error.message).not.toContain("try again");
    expect(llm.calls.filter((c) => c.refused === 404)).toHaveLength(1);
    expect(ms).toBeLessThan(1_000);
  });
});

describe("Groq's daily limits", () => {
  test("request headers are read as the day's requests: 30 a minute are still paced, not 1,000", async () => {
    const { youtube, llm } = fakes({ limits: gptOss20bFreePlan(WINDOW_MS) });
    youtube.setCaption(VIDEOS.normal.id, captionXml(generateCues(300)));
    const s = await service(llm, SCALED);
    const asks = Array.from({ length: 12 }, (_, i) => ({ url: watchUrl("normal"), prompt: `Question ${i} about it?` }));
    const statuses = (await Promise.all(asks.map((body) => chat(s, body)))).map((r) => r.status);
    expect(statuses.every((status) => status === 200 || status === 503)).toBe(true);
    expect(llm.calls.filter((c) => c.refused)).toEqual([]);
  });

  test("the day's tokens spent: refused at once with Retry-After until the reset, and the next request never reaches Groq", async () => {
    const limits = { ...gptOss20bFreePlan(WINDOW_MS), dayTokensUsed: 199_000 };
    const { youtube, llm } = fakes({ limits });
    youtube.setCaption(VIDEOS.normal.id, captionXml(generateCues(1800)));
    const s = await service(llm, SCALED);
    const first = await chat(s, { url: watchUrl("normal") });
    const body = await first.json();
    expect([first.status, body.error.code]).toEqual([503, "upstream_blocked"]);
    const retryAfter = Number(first.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(60);
    const sent = llm.calls.length;
    expect(llm.calls.filter((c) => c.refused === 429)).toHaveLength(1);
    const began = performance.now();
    const second = await chat(s, { url: watchUrl("normal"), prompt: "What is said about the battery?" });
    expect([second.status, (await second.json()).error.code]).toEqual([503, "upstream_blocked"]);
    expect(performance.now() - began).toBeLessThan(1_000);
    expect(Number(second.headers.get("retry-after"))).toBeGreaterThan(60);
    expect(llm.calls).toHaveLength(sent);
  });

  test.skipIf(!process.env.TEST_REDIS_URL)(
    "on two instances sharing Redis, the other instance refuses without calling Groq too",
    async () => {
      const limits = { ...gptOss20bFreePlan(WINDOW_MS), dayTokensUsed: 199_000 };
      const { youtube, llm } = fakes({ limits });
      youtube.setCaption(VIDEOS.normal.id, captionXml(generateCues(1800)));
      const shared = {
        ...SCALED,
        REDIS_URL: process.env.TEST_REDIS_URL!,
        REDIS_KEY_PREFIX: `day-${crypto.randomUUID()}:`,
      };
      const [a, b] = await Promise.all([service(llm, shared), service(llm, shared)]);
      expect((await chat(a, { url: watchUrl("normal") })).status).toBe(503);
      const sent = llm.calls.length;
      const other = await chat(b, { url: watchUrl("normal"), prompt: "What is said about the screen?" });
      expect([other.status, (await other.json()).error.code]).toEqual([503, "upstream_blocked"]);
      expect(Number(other.headers.get("retry-after"))).toBeGreaterThan(60);
      expect(llm.calls).toHaveLength(sent);
    },
  );
});
