/** @module End-to-end tests of quota holds: a failure, a killed process, requests in flight, two instances. */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FakeLlm, startFakeLlm } from "../support/fake/llm.ts";
import { type FakeYoutube, startFakeYoutube } from "../support/fake/youtube.ts";
import { watchUrl } from "../support/fixtures.ts";
import { postChat, type RunningService, startService, targetFromEnv } from "../support/service/process.ts";
import { createKey } from "../adapters/keys/keys-cli-process.ts";
import { dropPrefix, testRedisUrl, uniquePrefix } from "../support/redis-server.ts";

let youtube: FakeYoutube;
let llm: FakeLlm;
let dir: string;
let service: RunningService | undefined;

beforeAll(() => {
  youtube = startFakeYoutube();
  llm = startFakeLlm();
  dir = mkdtempSync(join(tmpdir(), "vcs-holds-e2e-"));
});
afterEach(async () => {
  await service?.stop("SIGKILL");
  service = undefined;
  llm.respondWith(undefined);
});
const REDIS = { REDIS_URL: testRedisUrl(), REDIS_KEY_PREFIX: uniquePrefix("e2e-holds") };

afterAll(async () => {
  await dropPrefix(REDIS.REDIS_URL, REDIS.REDIS_KEY_PREFIX);
  await youtube?.close();
  await llm?.close();
  rmSync(dir, { recursive: true, force: true });
});

let folders = 0;
/** A keys file of its own, in a folder of its own (the usage file lives beside it). */
const storeEnv = (): Record<string, string> => ({ KEYS_FILE: join(dir, `store-${++folders}`, "api-keys.json") });
const start = (env: Record<string, string>) =>
  startService({
    YOUTUBE_BASE_URL: youtube.origin,
    GROQ_API_KEY: "gsk_fake",
    GROQ_BASE_URL: llm.baseUrl,
    GROQ_MODEL: "fake-model",
    ...env,
  });
/** A question about the 5-minute video. */
const ask = (key: string, prompt: string) =>
  postChat(service!.url, { url: watchUrl("normal"), prompt }, { "x-api-key": key });

/** Waits until the model has been asked `count` times in all (the request asking is past its quota's hold). */
async function modelAsked(count: number): Promise<void> {
  for (const until = Date.now() + 15_000; llm.calls.length < count && Date.now() < until;) await Bun.sleep(20);
  expect(llm.calls.length).toBeGreaterThanOrEqual(count);
}

describe(`quota holds (${targetFromEnv()})`, () => {
  test.each([["the usage file", storeEnv], ["Redis", () => REDIS]])(
    "a 504 spends nothing (%s): a retry right after it, on an 8min/day key about a 5-minute video, is answered",
    async (_store, envOf) => {
      const env = envOf();
      const { key } = await createKey(env, "retried", undefined, ["--quota", "8min/day"]);
      service = await start({ ...env, LLM_TIMEOUT_MS: "800", LLM_MAX_RETRIES: "0" });
      llm.respondWith(() => ({ hang: true }));
      const failed = await ask(key, "Is the keyboard good?");
      expect(failed.status).toBe(504);
      expect((await failed.json()).error.code).toBe("upstream_timeout");
      llm.respondWith(undefined);
      const retry = await ask(key, "Is the keyboard good?");
      expect(retry.status).toBe(200);
      expect(retry.headers.get("quota-remaining")).toBe("3");
    },
  );

  test("refused because another request in flight holds the minutes: Retry-After is when that hold lapses", async () => {
    const env = storeEnv();
    const { key } = await createKey(env, "busy", undefined, ["--quota", "8min/day"]);
    // A hold lapses REQUEST_TIMEOUT_MS + USAGE_HOLD_GRACE_MS after its request began: 30 s here.
    service = await start({ ...env, REQUEST_TIMEOUT_MS: "20000", USAGE_HOLD_GRACE_MS: "10000" });
    llm.respondWith(() => ({ hang: true }));
    const calls = llm.calls.length;
    const began = Date.now();
    void ask(key, "What is it about?").catch(() => {});
    await modelAsked(calls + 1);
    const refused = await ask(key, "Is the keyboard good?");
    expect(refused.status).toBe(429);
    const { error } = await refused.json();
    expect(error.code).toBe("quota_exceeded");
    expect(error.message).toContain("Requests in flight of this API key hold the rest of its quota");
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeLessThanOrEqual(30);
    expect(retryAfter).toBeGreaterThanOrEqual(30 - Math.ceil((Date.now() - began) / 1000) - 1);
  });

  test("kill -9 mid-hold, then a restart: the dead request's hold stops counting once it lapses", async () => {
    const env = storeEnv();
    const { key } = await createKey(env, "killed", undefined, ["--quota", "5min/day"]);
    const settings = { ...env, REQUEST_TIMEOUT_MS: "1000", USAGE_HOLD_GRACE_MS: "2000" };
    service = await start(settings);
    llm.respondWith(() => ({ hang: true }));
    const calls = llm.calls.length;
    const began = Date.now();
    void ask(key, "What is it about?").catch(() => {});
    await modelAsked(calls + 1);
    await service.stop("SIGKILL");
    llm.respondWith(undefined);
    service = await start(settings);
    // The hold lapses 3 s after its request began (1 s time limit, 2 s grace); the restart took part of that.
    await Bun.sleep(Math.max(0, began + 3_300 - Date.now()));
    const after = await ask(key, "What is it about?");
    expect(after.status).toBe(200);
    expect(after.headers.get("quota-remaining")).toBe("0");
  });

  test("exact at the quota's end: 24 concurrent requests over two instances on one usage file, 3req/day: 3 answers", async () => {
    const env = storeEnv();
    const { key } = await createKey(env, "three a day", undefined, ["--quota", "3req/day"]);
    const [a, b] = await Promise.all([start(env), start(env)]);
    try {
      const statuses = await Promise.all(
        Array.from(
          { length: 24 },
          (_, i) =>
            postChat((i % 2 ? b : a).url, { url: watchUrl("normal"), prompt: `burst ${i % 4}` }, { "x-api-key": key })
              .then((response) => response.status),
        ),
      );
      expect(statuses.filter((status) => status === 200)).toHaveLength(3);
      expect(statuses.filter((status) => status === 429)).toHaveLength(21);
    } finally {
      await Promise.all([a.stop("SIGKILL"), b.stop("SIGKILL")]);
    }
  });
});
