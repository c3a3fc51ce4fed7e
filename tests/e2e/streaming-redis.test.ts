import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Redis } from "ioredis";
import { startFakeLlm, type FakeLlm } from "../support/fake-llm.ts";
import { startFakeYoutube, type FakeYoutube } from "../support/fake-youtube.ts";
import { watchUrl } from "../support/fixtures.ts";
import { startService, targetFromEnv, type RunningService } from "../support/service-process.ts";
import { deltaText, eventNames, readEvents } from "../support/sse.ts";
import { testRedisUrl, uniquePrefix } from "../adapters/redis/redis-server.ts";

const KEY = "e2e-stream-redis-key-0123456";
const redisUrl = testRedisUrl();
const PREFIX = uniquePrefix("e2e-stream");
let youtube: FakeYoutube;
let llm: FakeLlm;
let a: RunningService;
let b: RunningService;

beforeAll(async () => {
  youtube = startFakeYoutube();
  llm = startFakeLlm();
  const env = { API_KEYS: KEY, REDIS_URL: redisUrl, REDIS_KEY_PREFIX: PREFIX, YOUTUBE_BASE_URL: youtube.origin, GROQ_API_KEY: "gsk_fake", GROQ_BASE_URL: llm.baseUrl, LLM_TOKENS_PER_MINUTE: "100000000", LLM_REQUESTS_PER_MINUTE: "1000000" };
  [a, b] = await Promise.all([startService(env), startService(env)]);
});
afterAll(async () => {
  await Promise.all([a?.stop("SIGKILL"), b?.stop("SIGKILL")]);
  await youtube?.close();
  await llm?.close();
  const admin = new Redis(redisUrl);
  const keys = await admin.keys(`${PREFIX}*`);
  if (keys.length > 0) await admin.del(...keys);
  admin.disconnect();
});

const stream = (service: RunningService, prompt: string) =>
  fetch(`${service.url}/chat`, { method: "POST", headers: { "x-api-key": KEY, accept: "text/event-stream", "content-type": "application/json" }, body: JSON.stringify({ url: watchUrl("normal"), prompt }) });

describe(`streams across two instances on one Redis (${targetFromEnv()})`, () => {
  test("a stream waiting for another instance's work opens at once and ends with the whole text as one delta, then done; one LLM call in all", async () => {
    const content = "The reviewer likes the keyboard cover and the screen of this small tablet [0:01].\n\nBattery life is modest.";
    llm.respondWith(() => ({ content, chunkChars: 6, chunkDelayMs: 40 }));
    const first = readEvents(await stream(a, "shared stream?"));
    while (llm.calls.length === 0) await Bun.sleep(10);
    const started = performance.now();
    const response = await stream(b, "shared stream?");
    expect(response.status).toBe(200);
    expect(performance.now() - started).toBeLessThan(1_000);
    const [owner, waiter] = await Promise.all([first, readEvents(response)]);
    expect(eventNames(waiter)).toEqual(["delta", "done"]);
    expect(deltaText(waiter)).toBe(content);
    expect(deltaText(owner)).toBe(content);
    expect(waiter.at(-1)!.data).toEqual(owner.at(-1)!.data);
    expect(llm.calls).toHaveLength(1);
  }, 30_000);
});
