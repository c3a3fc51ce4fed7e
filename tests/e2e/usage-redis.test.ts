/** @module End-to-end tests of quotas shared by two instances on one Redis: exact, sequentially and at once. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type FakeLlm, startFakeLlm } from "../support/fake/llm.ts";
import { type FakeYoutube, startFakeYoutube } from "../support/fake/youtube.ts";
import { watchUrl } from "../support/fixtures.ts";
import { postChat, type RunningService, startService, targetFromEnv } from "../support/service/process.ts";
import { createKey, runKeys } from "../adapters/keys/keys-cli-process.ts";
import { dropPrefix, testRedisUrl, uniquePrefix } from "../support/redis-server.ts";

const redisUrl = testRedisUrl();
const STATE = { REDIS_URL: redisUrl, REDIS_KEY_PREFIX: uniquePrefix("e2e-usage") };
let youtube: FakeYoutube;
let llm: FakeLlm;
let a: RunningService;
let b: RunningService;

beforeAll(async () => {
  youtube = startFakeYoutube();
  llm = startFakeLlm();
  const env = { ...STATE, YOUTUBE_BASE_URL: youtube.origin, GROQ_API_KEY: "gsk_fake", GROQ_BASE_URL: llm.baseUrl };
  [a, b] = await Promise.all([startService(env), startService(env)]);
});
afterAll(async () => {
  await Promise.all([a?.stop("SIGKILL"), b?.stop("SIGKILL")]);
  await youtube?.close();
  await llm?.close();
  await dropPrefix(redisUrl, STATE.REDIS_KEY_PREFIX);
});

const ask = (service: RunningService, key: string, prompt: string) =>
  postChat(service.url, { url: watchUrl("normal"), prompt }, { "x-api-key": key });

describe(`quotas shared by two instances on one Redis (${targetFromEnv()})`, () => {
  test("3req/day: three answers across both, then the fourth is refused whichever instance gets it", async () => {
    const { key, id } = await createKey(STATE, "three a day", undefined, ["--quota", "3req/day"]);
    const answered = [];
    for (let i = 0; i < 3; i++) answered.push(await ask(i % 2 ? b : a, key, `question ${i}`));
    expect(answered.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(answered.map((r) => r.headers.get("quota-remaining"))).toEqual(["2", "1", "0"]);
    for (const service of [a, b]) {
      const refused = await ask(service, key, "a fourth");
      expect(refused.status).toBe(429);
      expect((await refused.json()).error.code).toBe("quota_exceeded");
      expect(refused.headers.get("quota-remaining")).toBe("0");
    }
    // The answers are written within about a second of each (held until then, so remaining is 0 at once).
    let quotas: unknown;
    for (const until = Date.now() + 8_000; Date.now() < until; await Bun.sleep(200)) {
      const report = await runKeys(STATE, ["usage", id, "--period", "day", "--json"], { entry: true });
      expect(report.code).toBe(0);
      quotas = JSON.parse(report.stdout.trim().split("\n").at(-1)!)[0].quotas;
      if ((quotas as { used: number }[])[0]?.used === 3) break;
    }
    expect(quotas).toEqual([expect.objectContaining({ quota: "3req/day", used: 3, remaining: 0 })]);
  });

  test("3req/day under 50 concurrent requests through both instances: exactly 3 answers, 47 quota_exceeded", async () => {
    const { key } = await createKey(STATE, "burst", undefined, ["--quota", "3req/day"]);
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) => ask(i % 2 ? b : a, key, `burst ${i % 5}`)),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(47);
    const codes = await Promise.all(
      responses.filter((r) => r.status === 429).map(async (r) => (await r.json()).error.code),
    );
    expect(new Set(codes)).toEqual(new Set(["quota_exceeded"]));
  });

  test("10min/day under 20 concurrent requests about a 5-minute video: exactly two answers", async () => {
    const { key } = await createKey(STATE, "minutes burst", undefined, ["--quota", "10min/day"]);
    const statuses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => ask(i % 2 ? b : a, key, `minutes ${i}`).then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(2);
    expect(statuses.filter((s) => s === 429)).toHaveLength(18);
  });

  test("a key with quotas, just verified by both instances, revoked through the CLI: refused at once by both", async () => {
    const { key, id } = await createKey(STATE, "revoked while remembered", undefined, ["--quota", "100req/day"]);
    for (const service of [a, b]) {
      expect((await ask(service, key, "summary")).status).toBe(200);
      expect((await ask(service, key, "summary")).status).toBe(200); // a cached answer: no key read at all
    }
    expect((await runKeys(STATE, ["revoke", id])).code).toBe(0);
    for (const service of [a, b]) {
      const refused = await ask(service, key, "summary");
      expect(refused.status).toBe(401);
      expect((await refused.json()).error).toMatchObject({
        code: "unauthorized",
        message: "Unknown API key; check the x-api-key header",
      });
    }
  });
});
