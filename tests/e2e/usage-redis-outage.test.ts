/** @module End-to-end test of usage while Redis is down: quotas on what the instance knows, counts written after. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type FakeLlm, startFakeLlm } from "../support/fake/llm.ts";
import { type FakeYoutube, startFakeYoutube } from "../support/fake/youtube.ts";
import { watchUrl } from "../support/fixtures.ts";
import { postChat, type RunningService, startService, targetFromEnv } from "../support/service/process.ts";
import { runKeys } from "../adapters/keys/keys-cli-process.ts";
import { type OwnRedis, startOwnRedis } from "../support/redis-server.ts";

const KEY = "e2e-usage-outage-key-0123456789";
let redis: OwnRedis;
let youtube: FakeYoutube;
let llm: FakeLlm;
let service: RunningService;
let state: Record<string, string>;

beforeAll(async () => {
  redis = await startOwnRedis();
  youtube = startFakeYoutube();
  llm = startFakeLlm();
  state = { REDIS_URL: redis.url, REDIS_KEY_PREFIX: "usage-outage:" };
  service = await startService({
    ...state,
    API_KEYS: KEY,
    QUOTA: "3req/day",
    YOUTUBE_BASE_URL: youtube.origin,
    GROQ_API_KEY: "gsk_fake",
    GROQ_BASE_URL: llm.baseUrl,
  });
});
afterAll(async () => {
  await service?.stop("SIGKILL");
  await youtube?.close();
  await llm?.close();
  await redis?.dispose();
});

const ask = (prompt: string) => postChat(service.url, { url: watchUrl("normal"), prompt }, { "x-api-key": KEY });

describe(`usage while Redis is down (${targetFromEnv()})`, () => {
  test("the quota is enforced on what the instance knows; the counts reach Redis once it is back", async () => {
    expect((await ask("before")).headers.get("quota-remaining")).toBe("2");
    await redis.stop({ save: true });
    const during = [await ask("during 1"), await ask("during 2")];
    expect(during.map((r) => [r.status, r.headers.get("quota-remaining")])).toEqual([[200, "1"], [200, "0"]]);
    const refused = await ask("during 3");
    expect(refused.status).toBe(429);
    expect((await refused.json()).error.code).toBe("quota_exceeded");
    const unavailable = '"event":"usage_store_unavailable"';
    expect(await service.outputWith(unavailable)).toContain(unavailable);

    await redis.start();
    let usage: { requests: number; refused: Record<string, number> } | undefined;
    for (const until = Date.now() + 15_000; Date.now() < until; await Bun.sleep(250)) {
      const run = await runKeys(state, ["usage", "--json", "--period", "day"], { entry: true });
      if (run.code !== 0) continue;
      usage = JSON.parse(run.stdout.trim().split("\n").at(-1)!).find((k: { id: string }) => k.id.startsWith("env:"));
      if (usage?.requests === 3 && usage.refused.quota_exceeded === 1) break;
    }
    expect(usage).toMatchObject({ name: "API_KEYS", requests: 3, refused: { quota_exceeded: 1 } });
    expect((await ask("after")).status).toBe(429);
  });
});
