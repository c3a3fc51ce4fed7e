/** @module Hostile callers across two instances on one Redis: one key cannot cancel another key's shared work. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ANSWERS, type FakeLlm, startFakeLlm } from "../support/fake/llm.ts";
import { type FakeYoutube, startFakeYoutube } from "../support/fake/youtube.ts";
import { watchUrl } from "../support/fixtures.ts";
import { postChat, type RunningService, startService, targetFromEnv } from "../support/service/process.ts";
import { readEvents } from "../support/sse.ts";
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

/** An answer of three paragraphs: the first is streamed once the language check has judged it, well before the end. */
const LONG_ANSWER = [
  ANSWERS.en!,
  "The battery lasts about nine hours of light use, which the reviewer finds enough for a day [0:01].",
  "In short, a good small tablet for the price [0:01].",
].join("\n\n");
const asked = (text: string) => llm.calls.some((call) => call.text.includes(text));

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

  test(
    "a joiner on another instance reads nothing before it pays: a 1min/day key following a 5-minute answer through the relay gets no delta",
    async () => {
      const owner = await createKey(STATE, "pays");
      const joiner = await createKey(STATE, "joins elsewhere", undefined, ["--quota", "1min/day"]);
      llm.respondWith(() => ({ content: LONG_ANSWER, chunkChars: 4, chunkDelayMs: 50 }));
      const body = { url: watchUrl("normal"), prompt: "What does the relay carry?" };
      const sse = (key: string) => ({ "x-api-key": key, accept: "text/event-stream" });
      const opened = await postChat(first.url, body, sse(owner.key));
      const reading = readEvents(opened);
      for (const until = Date.now() + 10_000; Date.now() < until && !asked(body.prompt);) await Bun.sleep(10);
      const joined = await postChat(second.url, body, sse(joiner.key));
      const events = joined.status === 200 ? await readEvents(joined) : [];
      const code = joined.status === 200 ? events.at(-1)?.data.error?.code : (await joined.json()).error.code;
      expect(code).toBe("quota_exceeded");
      expect(events.filter((e) => e.event === "delta")).toEqual([]);
      expect((await reading).at(-1)?.event).toBe("done");
    },
    30_000,
  );
});
