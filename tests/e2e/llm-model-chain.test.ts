/** @module End-to-end tests of a chain of models on Groq's per-model free plans, time-scaled: the next model serves. */
import { afterEach, describe, expect, test } from "bun:test";
import { VIDEOS, watchUrl } from "../support/fixtures.ts";
import { captionXml, generateCues } from "../support/long-transcript.ts";
import { ANSWERS, type FakeLlm, type FakeLlmOptions, startFakeLlm } from "../support/fake/llm.ts";
import { type FakeYoutube, startFakeYoutube } from "../support/fake/youtube.ts";
import { gptOss20bFreePlan, type ProviderLimitsOptions } from "../support/fake/provider-limits.ts";
import { requestLogLines } from "../support/request-log-lines.ts";
import { postChat, type RunningService, startService } from "../support/service/process.ts";

const API_KEY = "e2e-model-chain-key-0123";
const GROQ_KEY = "gsk_fake_model_chain_secret";
const PRIMARY = "openai/gpt-oss-20b";
const SECOND = "openai/gpt-oss-120b";
/** Groq's free plans played ten times faster, as the other free-plan tests play them: a 6 s minute, a 12 s deadline. */
const WINDOW_MS = 6_000;
const SCALED = { TEST_LLM_BUDGET_WINDOW_MS: String(WINDOW_MS), REQUEST_TIMEOUT_MS: "12000", ANSWER_CACHE_TTL_MS: "0" };

/** Groq's free plan for one model (gpt-oss-20b and -120b publish the same figures), with some of its day used. */
function plan(model: string, dayTokensUsed = 0): ProviderLimitsOptions {
  return { ...gptOss20bFreePlan(WINDOW_MS), model, dayTokensUsed };
}

const started: { services: RunningService[]; llms: FakeLlm[]; youtube: FakeYoutube[] } = {
  services: [],
  llms: [],
  youtube: [],
};
afterEach(async () => {
  await Promise.all(started.services.splice(0).map((s) => s.stop()));
  await Promise.all(started.llms.splice(0).map((l) => l.close()));
  await Promise.all(started.youtube.splice(0).map((y) => y.close()));
});

/** Fake YouTube with a five-minute video, a fake Groq with each model's own plan, and the service on both. */
async function chainOn(llmOptions: FakeLlmOptions, env: Record<string, string>) {
  const youtube = startFakeYoutube();
  youtube.setCaption(VIDEOS.normal.id, captionXml(generateCues(300)));
  const llm = startFakeLlm(llmOptions);
  started.youtube.push(youtube);
  started.llms.push(llm);
  const service = await startService({
    API_KEYS: API_KEY,
    YOUTUBE_BASE_URL: youtube.origin,
    GROQ_API_KEY: GROQ_KEY,
    GROQ_BASE_URL: llm.baseUrl,
    ...SCALED,
    ...env,
  });
  started.services.push(service);
  const ask = (body: Record<string, unknown>) => postChat(service.url, body, { "x-api-key": API_KEY });
  return { llm, service, ask };
}

const question = (i: number) => ({ url: watchUrl("normal"), prompt: `What does the reviewer say about part ${i}?` });
const callsTo = (llm: FakeLlm, model: string) => llm.calls.filter((c) => c.model === model);

describe("a chain of models on Groq's per-model free plans (time scaled by 10)", () => {
  test("the primary's day spent: the second model answers, the next question too, the primary is not called again, and a cached answer names its model", async () => {
    const { llm, service, ask } = await chainOn(
      { limitsByModel: { [PRIMARY]: plan(PRIMARY, 199_000), [SECOND]: plan(SECOND) } },
      { LLM_MODELS: `${PRIMARY},${SECOND}`, ANSWER_CACHE_TTL_MS: "60000" },
    );
    const banner = service.output();
    expect(banner).toContain(`groq:${PRIMARY} (context 131,072 tokens`);
    expect(banner).toContain(`> groq:${SECOND} (context 131,072 tokens`);
    const first = await ask(question(1));
    expect(first.status).toBe(200);
    expect(callsTo(llm, PRIMARY).map((c) => c.refused)).toEqual([429]);
    expect(first.headers.get("server-timing")).toContain(`model;desc="${SECOND}"`);
    expect((await requestLogLines(service, first))[0]!.model).toBe(SECOND);
    const second = await ask(question(2));
    expect(second.status).toBe(200);
    expect((await requestLogLines(service, second))[0]!.model).toBe(SECOND);
    expect(callsTo(llm, PRIMARY)).toHaveLength(1);
    expect(callsTo(llm, SECOND).filter((c) => !c.refused).length).toBeGreaterThanOrEqual(2);
    // The cached answer keeps the model that wrote it, for the log; the cache key does not name it.
    const sent = llm.calls.length;
    const hit = await ask(question(2));
    expect((await requestLogLines(service, hit))[0]).toMatchObject({ cache: "hit", model: SECOND });
    expect(llm.calls).toHaveLength(sent);
  });

  test("a streamed answer whose primary's day is spent is streamed whole by the second model", async () => {
    const { llm, service } = await chainOn(
      { limitsByModel: { [PRIMARY]: plan(PRIMARY, 199_000), [SECOND]: plan(SECOND) } },
      { LLM_MODELS: `${PRIMARY},${SECOND}` },
    );
    const response = await postChat(service.url, question(1), { "x-api-key": API_KEY, accept: "text/event-stream" });
    const text = await response.text();
    expect(text).toContain("event: done");
    expect(text).not.toContain("event: error");
    expect(callsTo(llm, PRIMARY).map((c) => c.refused)).toEqual([429]);
    expect(callsTo(llm, SECOND).filter((c) => !c.refused)).toHaveLength(1);
    expect(callsTo(llm, SECOND)[0]!.stream).toBe(true);
  });

  test(
    "the same day's work with two models serves at least 1.8 times the answers of one, counted to the first 503",
    async () => {
      // Each model has 10,000 tokens of its day left: a few questions' worth.
      const used = 190_000;
      const servedUntilRefused = async (env: Record<string, string>) => {
        const { ask } = await chainOn(
          { limitsByModel: { [PRIMARY]: plan(PRIMARY, used), [SECOND]: plan(SECOND, used) } },
          env,
        );
        for (let served = 0; served < 40; served++) {
          const response = await ask(question(served));
          if (response.status !== 200) {
            expect([response.status, (await response.json()).error.code]).toEqual([503, "upstream_blocked"]);
            return served;
          }
        }
        throw new Error("The day never ran out: the fake's day is not being charged");
      };
      const one = await servedUntilRefused({ LLM_MODEL: PRIMARY });
      const two = await servedUntilRefused({ LLM_MODELS: `${PRIMARY},${SECOND}` });
      expect(one).toBeGreaterThanOrEqual(2);
      expect(two).toBeGreaterThanOrEqual(1.8 * one);
    },
    120_000,
  );

  test("the primary retired: start-up warns, the next model answers, no 502, and the retired one is asked once", async () => {
    const retired = "llama-3.1-8b-instant";
    const { llm, service, ask } = await chainOn(
      { limitsByModel: { [PRIMARY]: plan(PRIMARY) } },
      { LLM_MODELS: `${retired},${PRIMARY}` },
    );
    const banner = service.output();
    expect(banner).toContain(`Warning: the language model endpoint does not serve the model "${retired}"`);
    expect(banner).toContain("set LLM_MODELS");
    const statuses = [(await ask(question(1))).status, (await ask(question(2))).status];
    expect(statuses).toEqual([200, 200]);
    expect(callsTo(llm, retired).map((c) => c.refused)).toEqual([404]);
    expect(callsTo(llm, PRIMARY).filter((c) => !c.refused)).toHaveLength(2);
  });

  test("every model's day spent: 503 upstream_blocked with Retry-After the soonest reset, and nothing sent after", async () => {
    // The primary has less of its day left than the second: the second's day has room again sooner.
    const { llm, ask } = await chainOn(
      { limitsByModel: { [PRIMARY]: plan(PRIMARY, 199_900), [SECOND]: plan(SECOND, 199_000) } },
      { LLM_MODELS: `${PRIMARY},${SECOND}` },
    );
    const first = await ask(question(1));
    expect([first.status, (await first.json()).error.code]).toEqual([503, "upstream_blocked"]);
    expect(llm.calls.map((c) => [c.model, c.refused])).toEqual([[PRIMARY, 429], [SECOND, 429]]);
    const waits = llm.calls.map((c) => c.retryAfterSeconds!);
    const retryAfter = Number(first.headers.get("retry-after"));
    expect(waits[1]!).toBeLessThan(waits[0]!);
    expect(Math.abs(retryAfter - waits[1]!)).toBeLessThanOrEqual(2);
    const began = performance.now();
    const again = await ask(question(2));
    expect([again.status, (await again.json()).error.code]).toEqual([503, "upstream_blocked"]);
    expect(Number(again.headers.get("retry-after"))).toBeLessThanOrEqual(retryAfter);
    expect(performance.now() - began).toBeLessThan(1_000);
    expect(llm.calls).toHaveLength(2);
  });

  test("an answer asked in Spanish stays Spanish on the second model, rewritten there when it drifts", async () => {
    const { llm, ask } = await chainOn(
      { limitsByModel: { [PRIMARY]: plan(PRIMARY, 199_000), [SECOND]: plan(SECOND) } },
      { LLM_MODELS: `${PRIMARY},${SECOND}` },
    );
    // The second model drifts into English on its first call, as small models do.
    llm.respondWith(() => ({ content: callsTo(llm, SECOND).length === 1 ? ANSWERS.en! : ANSWERS.es! }));
    const response = await ask({ url: watchUrl("normal"), language: "es", prompt: "¿Qué opina del teclado?" });
    expect(response.status).toBe(200);
    // The answer as the second model rewrote it (its citation moved to a moment the transcript has).
    expect((await response.json()).output).toStartWith("El vídeo analiza la Surface Go, una tableta pequeña y ligera.");
    const second = callsTo(llm, SECOND);
    expect(second).toHaveLength(2);
    expect(second[1]!.text).toContain("Rewrite it in Spanish");
  });
});

describe.skipIf(!process.env.TEST_REDIS_URL)("a chain of models on two instances sharing Redis", () => {
  test("the primary's day spent as one instance learnt it: the other moves to the second model without calling it", async () => {
    const shared = {
      LLM_MODELS: `${PRIMARY},${SECOND}`,
      REDIS_URL: process.env.TEST_REDIS_URL!,
      REDIS_KEY_PREFIX: `chain-${crypto.randomUUID()}:`,
    };
    const { llm, service, ask } = await chainOn(
      { limitsByModel: { [PRIMARY]: plan(PRIMARY, 199_000), [SECOND]: plan(SECOND) } },
      shared,
    );
    expect((await ask(question(1))).status).toBe(200);
    expect(callsTo(llm, PRIMARY).map((c) => c.refused)).toEqual([429]);
    const other = await startService({
      API_KEYS: API_KEY,
      YOUTUBE_BASE_URL: started.youtube[0]!.origin,
      GROQ_API_KEY: GROQ_KEY,
      GROQ_BASE_URL: llm.baseUrl,
      ...SCALED,
      ...shared,
    });
    started.services.push(other);
    const response = await postChat(other.url, question(2), { "x-api-key": API_KEY });
    expect(response.status).toBe(200);
    expect((await requestLogLines(other, response))[0]!.model).toBe(SECOND);
    expect(callsTo(llm, PRIMARY)).toHaveLength(1);
    expect(service.output()).not.toContain(GROQ_KEY);
  });
});

describe("a second endpoint after Groq (LLM_FALLBACK_*)", () => {
  test("Groq's days spent: a local vLLM answers with its own key, planned on its own context window; Groq's key never reaches it", async () => {
    const local = startFakeLlm({
      flavor: "vllm",
      models: [{ id: "meta-llama/Llama-3.1-8B-Instruct", contextTokens: 32_768 }],
    });
    started.llms.push(local);
    const { llm, service, ask } = await chainOn(
      { limitsByModel: { [PRIMARY]: plan(PRIMARY, 199_900), [SECOND]: plan(SECOND, 199_900) } },
      {
        LLM_MODELS: `${PRIMARY},${SECOND}`,
        LLM_FALLBACK_BASE_URL: local.baseUrl,
        LLM_FALLBACK_API_KEY: "local-vllm-key",
        LLM_FALLBACK_MODELS: "meta-llama/Llama-3.1-8B-Instruct",
      },
    );
    expect(service.output()).toContain(
      "> groq:meta-llama/Llama-3.1-8B-Instruct (context 32,768 tokens, from the endpoint's /models)",
    );
    const first = await ask(question(1));
    expect(first.status).toBe(200);
    expect((await requestLogLines(service, first))[0]!.model).toBe("meta-llama/Llama-3.1-8B-Instruct");
    expect(llm.calls.map((c) => [c.model, c.refused])).toEqual([[PRIMARY, 429], [SECOND, 429]]);
    const second = await ask(question(2));
    expect(second.status).toBe(200);
    expect(llm.calls).toHaveLength(2);
    expect(local.calls.filter((c) => !c.refused)).toHaveLength(2);
    expect(local.calls.map((c) => c.authorization)).toEqual(["Bearer local-vllm-key", "Bearer local-vllm-key"]);
    expect(llm.calls.every((c) => c.authorization === `Bearer ${GROQ_KEY}`)).toBe(true);
  });
});
