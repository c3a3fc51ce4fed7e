/** @module End-to-end test that requests keep succeeding while Redis is down, and sharing resumes after. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type FakeLlm, startFakeLlm } from "../support/fake/llm.ts";
import { type FakeYoutube, startFakeYoutube } from "../support/fake/youtube.ts";
import { watchUrl } from "../support/fixtures.ts";
import { postChat, type RunningService, startService, targetFromEnv } from "../support/service/process.ts";
import { createKey } from "../adapters/keys/keys-cli-process.ts";
import { type OwnRedis, startOwnRedis } from "../support/redis-server.ts";

const ENV_KEY = "e2e-outage-key-0123456789";
let redis: OwnRedis;
let youtube: FakeYoutube;
let llm: FakeLlm;
let a: RunningService;
let b: RunningService;
let state: Record<string, string>;

beforeAll(async () => {
  redis = await startOwnRedis();
  youtube = startFakeYoutube();
  llm = startFakeLlm();
  state = { REDIS_URL: redis.url, REDIS_KEY_PREFIX: "outage:" };
  const env = {
    ...state,
    API_KEYS: ENV_KEY,
    RATE_LIMIT: "1000/min",
    YOUTUBE_BASE_URL: youtube.origin,
    GROQ_API_KEY: "gsk_fake",
    GROQ_BASE_URL: llm.baseUrl,
  };
  [a, b] = await Promise.all([startService(env), startService(env)]);
});
afterAll(async () => {
  await Promise.all([a?.stop("SIGKILL"), b?.stop("SIGKILL")]);
  await youtube?.close();
  await llm?.close();
  await redis?.dispose();
});

const ask = (service: RunningService, prompt: string, key = ENV_KEY) =>
  postChat(service.url, { url: watchUrl("normal"), prompt }, { "x-api-key": key });
const events = (service: RunningService, name: string) =>
  service.output().split("\n").filter((line) => line.includes(`"event":"${name}"`)).length;

/** Whether an answer made by `from` is now served from the shared cache by `to`. */
async function shared(from: RunningService, to: RunningService): Promise<boolean> {
  const prompt = `shared? ${crypto.randomUUID()}`;
  if ((await ask(from, prompt)).status !== 200) return false;
  const calls = llm.calls.length;
  const again = await ask(to, prompt);
  return again.status === 200 && llm.calls.length === calls;
}

describe(`Redis stopped and restarted under two instances (${targetFromEnv()})`, () => {
  test("requests keep succeeding through the upstreams while Redis is down, and sharing resumes when it is back", async () => {
    expect(await shared(a, b)).toBe(true);
    const issued = await createKey(state, "used before the outage");
    expect((await ask(a, "summary", issued.key)).status).toBe(200);

    await redis.stop({ save: true });
    for (let i = 0; i < 6; i++) {
      const started = performance.now();
      const response = await ask(i % 2 === 0 ? a : b, `during the outage ${i}`);
      expect(response.status).toBe(200);
      expect(response.headers.get("ratelimit-limit")).toBe("1000");
      expect(performance.now() - started).toBeLessThan(3_000);
    }
    expect(await shared(a, b)).toBe(false);
    expect((await ask(a, "summary", issued.key)).status).toBe(200);
    expect(events(a, "redis_unavailable")).toBe(1);
    expect(events(b, "redis_unavailable")).toBe(1);

    await redis.start();
    let resumed = false;
    for (let i = 0; i < 40 && !resumed; i++) {
      resumed = await shared(a, b);
      if (!resumed) await Bun.sleep(250);
    }
    expect(resumed).toBe(true);
    expect(await shared(b, a)).toBe(true);
    expect((await ask(b, "summary", issued.key)).status).toBe(200);
    expect(events(a, "redis_recovered")).toBe(1);
    expect(a.output() + b.output()).not.toContain(issued.key);
  });
});
