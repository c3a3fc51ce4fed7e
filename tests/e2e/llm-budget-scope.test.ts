/** @module End-to-end tests that budgets are per endpoint, model and key, and headerless ones lift nothing. */
import { gptOss20bFreePlan } from "../support/fake/provider-limits.ts";
import { afterEach, describe, expect, test } from "bun:test";
import { RedisClient } from "bun";
import { VIDEOS, watchUrl } from "../support/fixtures.ts";
import { type FakeLlm, startFakeLlm } from "../support/fake/llm.ts";
import { type FakeYoutube, startFakeYoutube } from "../support/fake/youtube.ts";
import { captionXml, generateCues } from "../support/long-transcript.ts";
import { postChat, type RunningService, startService } from "../support/service/process.ts";
import { API_KEY } from "./llm-harness.ts";

/**
 * Whose budget a Redis key is: the provider counts an organisation (API
 * key) and model at one endpoint, so instances share a budget only when all
 * three match, and an endpoint that states no limits lifts only its own.
 * Free plan played ten times faster, as in llm-free-plan.test.ts.
 */
const WINDOW_MS = 6_000;
const FREE = gptOss20bFreePlan(WINDOW_MS);
const SCALED = { TEST_LLM_BUDGET_WINDOW_MS: String(WINDOW_MS), REQUEST_TIMEOUT_MS: "12000", ANSWER_CACHE_TTL_MS: "0" };

const started: { services: RunningService[]; llms: FakeLlm[]; youtube?: FakeYoutube } = { services: [], llms: [] };
afterEach(async () => {
  await Promise.all(started.services.splice(0).map((s) => s.stop()));
  await Promise.all(started.llms.splice(0).map((l) => l.close()));
  await started.youtube?.close();
});

async function instance(env: Record<string, string>) {
  const service = await startService({
    API_KEYS: API_KEY,
    YOUTUBE_BASE_URL: started.youtube!.origin,
    REDIS_URL: process.env.TEST_REDIS_URL!,
    ...SCALED,
    ...env,
  });
  started.services.push(service);
  return service;
}

describe.skipIf(!process.env.TEST_REDIS_URL)("the LLM budget's scope on one Redis", () => {
  test("two organisations' keys on one model do not share a budget, and Redis names neither key", async () => {
    started.youtube = startFakeYoutube();
    started.youtube.setCaption(VIDEOS.normal.id, captionXml(generateCues(3600)));
    const paid = startFakeLlm({ limits: { tokensPerWindow: 60_000, requestsPerWindow: 1_000, windowMs: WINDOW_MS } });
    const free = startFakeLlm({ limits: FREE });
    started.llms.push(paid, free);
    const prefix = `scope-${crypto.randomUUID()}:`;
    // One gateway URL in front of each organisation's plan would look the same; here the two keys also reach two fakes.
    const b = await instance({
      GROQ_API_KEY: "gsk_organisation_b_paid",
      GROQ_BASE_URL: paid.baseUrl,
      REDIS_KEY_PREFIX: prefix,
    });
    const a = await instance({
      GROQ_API_KEY: "gsk_organisation_a_free",
      GROQ_BASE_URL: free.baseUrl,
      REDIS_KEY_PREFIX: prefix,
    });
    for (const prompt of ["What is said about the battery?", "What is said about the screen?"]) {
      expect((await postChat(b.url, { url: watchUrl("normal"), prompt }, { "x-api-key": API_KEY })).status).toBe(200);
    }
    const response = await postChat(a.url, { url: watchUrl("normal") }, { "x-api-key": API_KEY });
    expect(response.status).toBe(200);
    expect(free.calls.filter((c) => c.refused).map((c) => c.refused)).toEqual([]);
    const redis = new RedisClient(process.env.TEST_REDIS_URL!);
    try {
      const keys = (await redis.send("KEYS", [`${prefix}llm-budget:*`])) as string[];
      expect(keys).toHaveLength(2);
      for (const key of keys) expect(key).not.toMatch(/gsk_|organisation/);
    } finally {
      redis.close();
    }
  });

  test("an endpoint that states no limits does not lift the limits of another endpoint on the same model and key", async () => {
    started.youtube = startFakeYoutube();
    started.youtube.setCaption(VIDEOS.normal.id, captionXml(generateCues(3 * 3600)));
    const headerless = startFakeLlm();
    const free = startFakeLlm({ limits: FREE });
    started.llms.push(headerless, free);
    const prefix = `scope-${crypto.randomUUID()}:`;
    const gateway = await instance({
      GROQ_API_KEY: "gsk_one_key",
      GROQ_BASE_URL: headerless.baseUrl,
      REDIS_KEY_PREFIX: prefix,
    });
    const groq = await instance({ GROQ_API_KEY: "gsk_one_key", GROQ_BASE_URL: free.baseUrl, REDIS_KEY_PREFIX: prefix });
    for (const topic of ["battery", "screen", "keyboard", "price"]) {
      expect(
        (await postChat(gateway.url, { url: watchUrl("normal"), prompt: `What about the ${topic}?` }, {
          "x-api-key": API_KEY,
        })).status,
      ).toBe(200);
    }
    const response = await postChat(groq.url, { url: watchUrl("normal") }, { "x-api-key": API_KEY });
    expect(response.status).toBe(200);
    expect(free.calls.filter((c) => c.refused).map((c) => c.refused)).toEqual([]);
  });
});
