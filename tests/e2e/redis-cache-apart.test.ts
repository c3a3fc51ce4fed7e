/** @module End-to-end test of the caches in a Redis of their own (REDIS_CACHE_URL), every cache key with a TTL. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Redis } from "ioredis";
import { type FakeYoutube, startFakeYoutube } from "../support/fake/youtube.ts";
import { watchUrl } from "../support/fixtures.ts";
import { postChat, type RunningService, startService, targetFromEnv } from "../support/service/process.ts";
import { createKey } from "../adapters/keys/keys-cli-process.ts";
import { dropPrefix, type OwnRedis, startOwnRedis, testRedisUrl, uniquePrefix } from "../support/redis-server.ts";

const state = testRedisUrl();
const PREFIX = uniquePrefix("e2e-cache-apart");
let caches: OwnRedis;
let youtube: FakeYoutube;
let service: RunningService | undefined;

beforeAll(async () => {
  caches = await startOwnRedis();
  youtube = startFakeYoutube();
});
afterAll(async () => {
  await service?.stop("SIGKILL");
  await youtube?.close();
  await caches?.dispose();
  await dropPrefix(state, PREFIX);
});

/** Every key under the prefix, with its time to live in ms (-1: none). */
async function keysWithTtl(url: string): Promise<Map<string, number>> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0 });
  await client.connect();
  try {
    const keys = await client.keys(`${PREFIX}*`);
    return new Map(
      await Promise.all(keys.map(async (key) => [key.slice(PREFIX.length), await client.pttl(key)] as const)),
    );
  } finally {
    client.disconnect();
  }
}

describe(`caches apart from keys and usage (${targetFromEnv()})`, () => {
  test("REDIS_CACHE_URL: transcripts and answers go there, each with a TTL; keys and usage stay in REDIS_URL", async () => {
    const env = { REDIS_URL: state, REDIS_KEY_PREFIX: PREFIX };
    const { key } = await createKey(env, "cached apart", undefined, ["--quota", "100min/day"]);
    service = await startService({ ...env, REDIS_CACHE_URL: caches.url, YOUTUBE_BASE_URL: youtube.origin });
    for (let i = 0; i < 2; i++) {
      const answered = await postChat(service.url, { url: watchUrl("normal"), prompt: "summary" }, {
        "x-api-key": key,
      });
      expect(answered.status).toBe(200);
    }
    const cached = await keysWithTtl(caches.url);
    expect([...cached.keys()].some((name) => name.startsWith("transcript:"))).toBe(true);
    expect([...cached.keys()].some((name) => name.startsWith("answer:"))).toBe(true);
    for (const [name, ttl] of cached) expect([name, ttl > 0]).toEqual([name, true]);
    // Written about a second after the answer: the ledger, in the main Redis, with no cache beside it.
    let main = await keysWithTtl(state);
    for (
      const until = Date.now() + 5_000;
      ![...main.keys()].some((n) => n.startsWith("usage:")) && Date.now() < until;
    ) {
      await Bun.sleep(100);
      main = await keysWithTtl(state);
    }
    expect(main.get("keys")).toBe(-1);
    expect([...main.keys()].some((name) => name.startsWith("usage:"))).toBe(true);
    expect([...main.keys()].filter((name) => name.startsWith("transcript:") || name.startsWith("answer:"))).toEqual([]);
  });
});
