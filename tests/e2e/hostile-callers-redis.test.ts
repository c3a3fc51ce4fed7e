/** @module Hostile callers across two instances on one Redis: one key cannot cancel another key's shared work. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ANSWERS, type FakeLlm, startFakeLlm } from "../support/fake-llm.ts";
import { type FakeYoutube, startFakeYoutube } from "../support/fake-youtube.ts";
import { watchUrl } from "../support/fixtures.ts";
import { postChat, type RunningService, startService, targetFromEnv } from "../support/service-process.ts";
import { createKey } from "../adapters/keys/keys-cli-process.ts";
import { dropPrefix, testRedisUrl, uniquePrefix } from "../support/redis-server.ts";

const redisUrl = testRedisUrl();
const STATE = { REDIS_URL: redisUrl, REDIS_KEY_PREFIX: uniquePrefix("e2e-hostile") };
let youtube: FakeYoutube;
let llm: FakeLlm;
let first: RunningService;
let second: RunningService;

beforeAll(async () => {
  youtube = startFakeYoutube();
  llm = startFakeLlm();
  const env = {
    ...STATE,
    YOUTUBE_BASE_URL: youtube.origin,
    GROQ_API_KEY: "gsk_fake",
    GROQ_BASE_URL: llm.baseUrl,
    GROQ_MODEL: "fake-model",
    RATE_LIMIT: "1000/min",
  };
  [first, second] = await Promise.all([startService(env), startService(env)]);
});
afterAll(async () => {
  await Promise.all([first?.stop("SIGKILL"), second?.stop("SIGKILL")]);
  await youtube?.close();
  await llm?.close();
  await dropPrefix(redisUrl, STATE.REDIS_KEY_PREFIX);
});

describe(`hostile callers across two instances on one Redis (${targetFromEnv()})`, () => {
  test(
    "A hanging up on instance 1 does not fail B, joined to the same work from instance 2: B gets its answer",
    async () => {
      const a = await createKey(STATE, "hangs up");
      const b = await createKey(STATE, "waits");
      // A slow model: the work is still running when A leaves.
      llm.respondWith(() => ({ content: ANSWERS.en!, delayMs: 1_500 }));
      const body = { url: watchUrl("normal"), prompt: "What do both keys want to know?" };
      const gone = new AbortController();
      const owner = postChat(first.url, body, { "x-api-key": a.key }, gone.signal).catch(() => "hung up");
      // A's work asks the model on instance 1; B asks the same on instance 2 and waits for it; then A hangs up.
      for (const until = Date.now() + 10_000; Date.now() < until && llm.calls.length === 0;) await Bun.sleep(10);
      expect(llm.calls).toHaveLength(1);
      const waiting = postChat(second.url, body, { "x-api-key": b.key });
      await Bun.sleep(300);
      gone.abort();
      expect(await owner).toBe("hung up");
      const answered = await waiting;
      expect(answered.status).toBe(200);
      expect((await answered.json()).output).toBe(ANSWERS.en);
    },
    30_000,
  );
});
