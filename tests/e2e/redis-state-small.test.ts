/** @module End-to-end test that the state Redis stays small when the caches have a Redis of their own. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Redis } from "ioredis";
import { type FakeYoutube, startFakeYoutube } from "../support/fake/youtube.ts";
import { captionXml, generateCues } from "../support/long-transcript.ts";
import { postChat, type RunningService, startService, targetFromEnv } from "../support/service/process.ts";
import { type OwnRedis, startOwnRedis } from "../support/redis-server.ts";

const KEY = "e2e-state-small-key-0123456789";
const VIDEOS = 40;
/** About 5.5 hours of captions: some 390 kB of XML a video. */
const CAPTION_SECONDS = 5.5 * 3600;
const MB = 1024 * 1024;
let state: OwnRedis;
let caches: OwnRedis;
let youtube: FakeYoutube;
let service: RunningService | undefined;
/** A second instance: each question is asked of both at once, so one waits for the other's work and its outcome. */
let other: RunningService | undefined;

beforeAll(async () => {
  [state, caches] = await Promise.all([startOwnRedis(), startOwnRedis()]);
  // Latency keeps each fetch in flight while the same question reaches the other instance.
  youtube = startFakeYoutube({ anyVideo: true, latencyMs: 100 });
});
afterAll(async () => {
  await Promise.all([service?.stop("SIGKILL"), other?.stop("SIGKILL")]);
  await youtube?.close();
  await state?.dispose();
  await caches?.dispose();
});

/** Asks both instances the same question at once; @returns their statuses */
async function askBoth(id: string, prompt: string): Promise<number[]> {
  return await Promise.all([service!, other!].map(async (instance) => {
    const response = await postChat(instance.url, { url: `https://www.youtube.com/watch?v=${id}`, prompt }, {
      "x-api-key": KEY,
    });
    await response.arrayBuffer();
    return response.status;
  }));
}

async function inspect(url: string): Promise<{ usedMemory: number; keys: Map<string, number> }> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0 });
  await client.connect();
  try {
    const info = await client.info("memory");
    const usedMemory = Number(/used_memory:(\d+)/.exec(info)![1]);
    const names = await client.keys("*");
    const keys = new Map(await Promise.all(names.map(async (name) => [name, await client.pttl(name)] as const)));
    return { usedMemory, keys };
  } finally {
    client.disconnect();
  }
}

describe(`the state Redis stays small (${targetFromEnv()})`, () => {
  test(
    `${VIDEOS} questions about distinct large transcripts grow REDIS_URL by little: their outcomes go to REDIS_CACHE_URL`,
    async () => {
      const env = {
        API_KEYS: KEY,
        REDIS_URL: state.url,
        REDIS_CACHE_URL: caches.url,
        YOUTUBE_BASE_URL: youtube.origin,
      };
      [service, other] = await Promise.all([startService(env), startService(env)]);
      const ids = Array.from({ length: VIDEOS }, (_, i) => `big${String(i).padStart(8, "0")}`);
      const xml = captionXml(generateCues(CAPTION_SECONDS));
      for (const id of ids) youtube.setCaption(id, xml.replaceAll("</text>", ` ${id}</text>`));
      const before = await inspect(state.url);
      for (let i = 0; i < ids.length; i += 4) {
        const statuses = (await Promise.all(ids.slice(i, i + 4).map((id) => askBoth(id, "What is it about?")))).flat();
        expect(statuses).toEqual(statuses.map(() => 200));
      }
      const after = await inspect(state.url);
      const cached = await inspect(caches.url);
      const grownMb = (after.usedMemory - before.usedMemory) / MB;
      console.log(
        `redis-state-small: state Redis ${(before.usedMemory / MB).toFixed(2)} → ${
          (after.usedMemory / MB).toFixed(2)
        } MB (${after.keys.size} keys); cache Redis ${
          (cached.usedMemory / MB).toFixed(2)
        } MB (${cached.keys.size} keys)`,
      );
      // Before the fix: about 17.8 MB (every transcript's flight outcome, kept 60 s).
      expect(grownMb).toBeLessThan(2);
      const heavy = [...after.keys.keys()].filter((name) => /flight:(outcome|events):|transcript:|answer:/.test(name));
      expect(heavy).toEqual([]);
      expect([...cached.keys.keys()].some((name) => name.includes("flight:outcome:"))).toBe(true);
      for (const [name, ttl] of cached.keys) expect([name, ttl > 0]).toEqual([name, true]);
    },
    120_000,
  );

  test("on one Redis, every key the service writes carries a TTL", async () => {
    await Promise.all([service?.stop("SIGKILL"), other?.stop("SIGKILL")]);
    const one = await startOwnRedis();
    try {
      const env = { API_KEYS: KEY, REDIS_URL: one.url, YOUTUBE_BASE_URL: youtube.origin };
      [service, other] = await Promise.all([startService(env), startService(env)]);
      for (const id of ["one00000001", "one00000002"]) {
        youtube.setCaption(id, captionXml(generateCues(600)));
        for (const prompt of ["What is it about?", "And the ending?"]) {
          expect(await askBoth(id, prompt)).toEqual([200, 200]);
        }
      }
      await Bun.sleep(1_500); // the usage ledger is written behind, about once a second
      const { keys } = await inspect(one.url);
      expect([...keys.keys()].some((name) => name.includes("flight:outcome:"))).toBe(true);
      expect([...keys.keys()].some((name) => name.includes(":usage:"))).toBe(true);
      for (const [name, ttl] of keys) expect([name, ttl > 0]).toEqual([name, true]);
    } finally {
      await Promise.all([service?.stop("SIGKILL"), other?.stop("SIGKILL")]);
      service = other = undefined;
      await one.dispose();
    }
  }, 60_000);
});
