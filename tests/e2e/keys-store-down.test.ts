/** @module End-to-end tests of a key store that cannot be read at start-up: no door opens, and no key is made. */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type OwnRedis, startOwnRedis } from "../support/redis-server.ts";
import { type FakeYoutube, startFakeYoutube } from "../support/fake/youtube.ts";
import { watchUrl } from "../support/fixtures.ts";
import { adminUrlOf, postChat, type RunningService, startService, targetFromEnv } from "../support/service/process.ts";
import { createKey } from "../adapters/keys/keys-cli-process.ts";

let redis: OwnRedis;
let youtube: FakeYoutube;
let dir: string;
let service: RunningService | undefined;

beforeAll(async () => {
  redis = await startOwnRedis();
  youtube = startFakeYoutube();
  dir = mkdtempSync(join(tmpdir(), "vcs-keys-down-"));
});
afterEach(async () => {
  await service?.stop("SIGKILL");
  service = undefined;
});
afterAll(async () => {
  await youtube?.close();
  await redis?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

/** Polls `read` until it returns `wanted` (or 15 s pass); returns what it read last. */
async function until<T>(read: () => Promise<T>, wanted: T): Promise<T> {
  let value = await read();
  for (const deadline = Date.now() + 15_000; value !== wanted && Date.now() < deadline;) {
    await Bun.sleep(100);
    value = await read();
  }
  return value;
}

const GENERATED = "generated one key";

/** The output through a refused request's log line: the whole banner, and the proof that no key was let in unasked. */
async function wholeBanner(service: RunningService): Promise<string> {
  const refused = await postChat(service.url, { url: watchUrl("normal"), prompt: "summary" }, {});
  expect(refused.status).toBe(401);
  return await service.outputWith('"status":401');
}

describe(`a key store that is down opens no door (${targetFromEnv()})`, () => {
  test(
    "REDIS_URL unreachable at start-up, no API_KEYS: no key made, /readyz 503 and /chat 503 until Redis answers",
    async () => {
      const env = { REDIS_URL: redis.url, REDIS_KEY_PREFIX: `down-${crypto.randomUUID().slice(0, 8)}:` };
      const { key } = await createKey(env, "issued before the outage");
      await redis.stop({ save: true });
      service = await startService({ ...env, ADMIN_PORT: "0", YOUTUBE_BASE_URL: youtube.origin });
      expect(service.output()).not.toContain(GENERATED);
      const admin = await adminUrlOf(service);
      const readyz = await fetch(`${admin}/readyz`);
      expect(readyz.status).toBe(503);
      expect(await readyz.json()).toMatchObject({ status: "not_ready", reason: "redis_unreachable" });
      for (const presented of [key, "any-key-at-all-0123456789-abcdefghij"]) {
        const refused = await postChat(service.url, { url: watchUrl("normal"), prompt: "summary" }, {
          "x-api-key": presented,
        });
        expect(refused.status).toBe(503);
        expect(refused.headers.get("retry-after")).toBe("5");
        const { error } = await refused.json();
        expect(error.code).toBe("overloaded");
        expect(JSON.stringify(error)).not.toContain("redis://");
      }

      await redis.start();
      expect(await until(async () => (await fetch(`${admin}/readyz`)).status, 200)).toBe(200);
      const answered = await postChat(service.url, { url: watchUrl("normal"), prompt: "summary" }, {
        "x-api-key": key,
      });
      expect(answered.status).toBe(200);
      const unknown = await postChat(service.url, { url: watchUrl("normal"), prompt: "summary" }, {
        "x-api-key": "any-key-at-all-0123456789-abcdefghij",
      });
      expect(unknown.status).toBe(401);
      expect(service.output()).not.toContain(GENERATED);
    },
    60_000,
  );

  test("a keys file that exists but does not parse is not 'no keys': no key is generated", async () => {
    const keysFile = join(dir, "unreadable", "api-keys.json");
    mkdirSync(join(dir, "unreadable"));
    writeFileSync(keysFile, "{ not json", { mode: 0o600 });
    service = await startService({ KEYS_FILE: keysFile, YOUTUBE_BASE_URL: youtube.origin });
    expect(await wholeBanner(service)).not.toContain(GENERATED);
  });

  test("no API_KEYS, no REDIS_URL and no keys file yet: one key is made for the run (the only case)", async () => {
    service = await startService({ KEYS_FILE: join(dir, "fresh", "api-keys.json"), YOUTUBE_BASE_URL: youtube.origin });
    expect(await wholeBanner(service)).toContain(GENERATED);
  });
});
