/** @module End-to-end test of `/readyz` and `vcs_redis_up` while Redis is gone and back. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type OwnRedis, startOwnRedis } from "../support/redis-server.ts";
import { type FakeYoutube, startFakeYoutube } from "../support/fake/youtube.ts";
import { parseSamples } from "../support/prometheus-text.ts";
import { adminUrlOf, type RunningService, startService, targetFromEnv } from "../support/service/process.ts";

let redis: OwnRedis;
let youtube: FakeYoutube;
let service: RunningService | undefined;

beforeAll(async () => {
  redis = await startOwnRedis();
  youtube = startFakeYoutube();
});
afterAll(async () => {
  await service?.stop("SIGKILL");
  await youtube?.close();
  await redis?.dispose();
});

/** Polls until `read` returns `wanted` (or 10 s pass), and returns what it read last. */
async function until<T>(read: () => Promise<T>, wanted: T): Promise<T> {
  const deadline = Date.now() + 10_000;
  let value = await read();
  while (value !== wanted && Date.now() < deadline) {
    await Bun.sleep(50);
    value = await read();
  }
  return value;
}

describe(`readiness and vcs_redis_up follow Redis (${targetFromEnv()})`, () => {
  test(
    "Redis gone longer than READINESS_REDIS_GRACE_MS: /readyz 503 redis_unreachable and vcs_redis_up 0; back: 200 and 1",
    async () => {
      service = await startService({
        API_KEYS: "e2e-ready-key-0123456789",
        ADMIN_PORT: "0",
        REDIS_URL: redis.url,
        REDIS_KEY_PREFIX: "ready:",
        READINESS_REDIS_GRACE_MS: "300",
        YOUTUBE_BASE_URL: youtube.origin,
      });
      const admin = await adminUrlOf(service);
      const redisUp = async () => parseSamples(await (await fetch(`${admin}/metrics`)).text()).get("vcs_redis_up");
      const readyz = async () => (await fetch(`${admin}/readyz`)).status;
      expect(await until(redisUp, 1)).toBe(1);
      expect(await readyz()).toBe(200);

      await redis.stop();
      expect(await until(redisUp, 0)).toBe(0);
      expect(await until(readyz, 503)).toBe(503);
      expect(await (await fetch(`${admin}/readyz`)).json()).toMatchObject({
        status: "not_ready",
        reason: "redis_unreachable",
      });
      expect((await fetch(`${admin}/healthz`)).status).toBe(200);

      await redis.start();
      expect(await until(redisUp, 1)).toBe(1);
      expect(await until(readyz, 200)).toBe(200);
    },
    40_000,
  );
});
