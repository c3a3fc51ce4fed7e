/** @module End-to-end tests of usage and quotas per key without Redis: headers, refusals, the report, restarts. */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ANSWERS, type FakeLlm, startFakeLlm } from "../support/fake/llm.ts";
import { type FakeYoutube, startFakeYoutube } from "../support/fake/youtube.ts";
import { VIDEOS, watchUrl } from "../support/fixtures.ts";
import { captionXml } from "../support/long-transcript.ts";
import { postChat, type RunningService, startService, targetFromEnv } from "../support/service/process.ts";
import { createKey, runKeys } from "../adapters/keys/keys-cli-process.ts";
import { readEvents } from "../support/sse.ts";

const INPUT_TOKENS = 1234;
const OUTPUT_TOKENS = 56;
let youtube: FakeYoutube;
let llm: FakeLlm;
let dir: string;
let service: RunningService | undefined;

beforeAll(() => {
  youtube = startFakeYoutube();
  llm = startFakeLlm();
  dir = mkdtempSync(join(tmpdir(), "vcs-usage-e2e-"));
});
afterEach(async () => {
  await service?.stop("SIGKILL");
  service = undefined;
  llm.respondWith(undefined);
});
afterAll(async () => {
  await youtube?.close();
  await llm?.close();
  rmSync(dir, { recursive: true, force: true });
});

let folders = 0;
/** A keys file of its own, in a folder of its own (the usage file lives beside it). */
function storeEnv(): Record<string, string> {
  return { KEYS_FILE: join(dir, `store-${++folders}`, "api-keys.json") };
}
const start = (env: Record<string, string>) =>
  startService({
    YOUTUBE_BASE_URL: youtube.origin,
    GROQ_API_KEY: "gsk_fake",
    GROQ_BASE_URL: llm.baseUrl,
    // A plain model: the tokens counted are the answer's alone (a reasoning model's would add its reasoning).
    GROQ_MODEL: "fake-model",
    ...env,
  });
const ask = (key: string, prompt = "summary", url = watchUrl("normal"), headers: Record<string, string> = {}) =>
  postChat(service!.url, { url, prompt }, { "x-api-key": key, ...headers });
const quotaHeaders = (response: Response) =>
  ["quota-limit", "quota-remaining", "quota-policy"].map((name) => response.headers.get(name));
const untilUtcMidnight = () => {
  const now = new Date();
  return (Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1) - now.getTime()) / 1000;
};

interface KeyUsage {
  id: string;
  name: string;
  period: string;
  requests: number;
  cacheHits: number;
  minutes: number;
  inputTokens: number;
  outputTokens: number;
  refused: Record<string, number>;
  quotas: { quota: string; limit: number; used: number; remaining: number; resetsAt: string }[];
}

/** `keys usage --json` through the entry point under test, until `ready` holds (counts are written within ~1 s). */
async function usageOf(env: Record<string, string>, ready: (keys: KeyUsage[]) => boolean, args: string[] = []) {
  let last: KeyUsage[] = [];
  for (const until = Date.now() + 8_000; Date.now() < until;) {
    const run = await runKeys(env, ["usage", "--json", ...args], { entry: true });
    expect(run.code).toBe(0);
    last = JSON.parse(run.stdout.trim().split("\n").at(-1)!);
    if (ready(last)) return last;
    await Bun.sleep(200);
  }
  return last;
}

describe(`usage and quotas per key, without Redis (${targetFromEnv()})`, () => {
  test("--quota 10min/day: two answers about a 5-minute video (the second cached) leave 5 then 0; then 429 until midnight", async () => {
    const env = storeEnv();
    const { key } = await createKey(env, "ten a day", undefined, ["--quota", "10min/day"]);
    service = await start(env);
    const first = await ask(key);
    expect(first.status).toBe(200);
    expect(quotaHeaders(first)).toEqual(["10", "5", "10min/day"]);
    const calls = llm.calls.length;
    const second = await ask(key);
    expect(second.status).toBe(200);
    expect(quotaHeaders(second)).toEqual(["10", "0", "10min/day"]);
    expect(llm.calls.length).toBe(calls);
    const refused = await ask(key, "summary");
    expect(refused.status).toBe(429);
    expect((await refused.json()).error.code).toBe("quota_exceeded");
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(Math.ceil(untilUtcMidnight()) + 1);
    expect(retryAfter).toBeGreaterThanOrEqual(Math.floor(untilUtcMidnight()) - 30);
    expect(quotaHeaders(refused)).toEqual(["10", "0", "10min/day"]);
    expect(Number(refused.headers.get("quota-reset"))).toBe(retryAfter);
    // A quota refusal is not a rate limit's: with no rate limit (startService's RATE_LIMIT=none), no RateLimit-*.
    expect(refused.headers.get("ratelimit-limit")).toBeNull();
  });

  test("a 5-minute video on a key with 3 minutes left is refused, and the LLM sees no call for it", async () => {
    const env = storeEnv();
    const { key } = await createKey(env, "eight a day", undefined, ["--quota", "8min/day"]);
    service = await start(env);
    expect(quotaHeaders(await ask(key, "What is it about?"))).toEqual(["8", "3", "8min/day"]);
    const calls = llm.calls.length;
    const refused = await ask(key, "Is the keyboard good?");
    expect(refused.status).toBe(429);
    const { error } = await refused.json();
    expect(error.code).toBe("quota_exceeded");
    expect(error.message).toContain(
      "The video is charged 5 minutes (its length, or its transcript's text at 1000 characters a minute when longer) and this API key has 3 of its 8 video minutes",
    );
    expect(quotaHeaders(refused)).toEqual(["8", "3", "8min/day"]);
    expect(llm.calls.length).toBe(calls);
    expect(llm.calls.some((call) => call.text.includes("Is the keyboard good?"))).toBe(false);
  });

  test("a 5-minute video with 60,000 characters of captions is charged 60 minutes on a min/day key, not 5", async () => {
    // Sixty cues of 1,000 characters: twelve times what five minutes of speech hold.
    const cues = Array.from(
      { length: 60 },
      (_, i) => ({ start: i * 5, duration: 5, text: `${i}`.padEnd(1_000, " word") }),
    );
    youtube.setCaption(VIDEOS.normal.id, captionXml(cues));
    try {
      const env = storeEnv();
      const { key } = await createKey(env, "text-heavy", undefined, ["--quota", "100min/day"]);
      const { key: small } = await createKey(env, "fifty a day", undefined, ["--quota", "50min/day"]);
      service = await start(env);
      const answered = await ask(key, "What is it about?");
      expect(answered.status).toBe(200);
      // video_duration still words the video's length; the charge is its text's.
      expect((await answered.json()).video_duration).toBe("5 minutes");
      expect(quotaHeaders(answered)).toEqual(["100", "40", "100min/day"]);
      const calls = llm.calls.length;
      const refused = await ask(small, "What is it about?");
      expect(refused.status).toBe(429);
      const { error } = await refused.json();
      expect(error.code).toBe("quota_exceeded");
      expect(error.message).toContain("The video is charged 60 minutes");
      expect(llm.calls.length).toBe(calls);
      const usage = await usageOf(env, (keys) => keys.some((k) => k.name === "text-heavy" && k.minutes > 0));
      expect(usage.find((k) => k.name === "text-heavy")!.minutes).toBe(60);
    } finally {
      youtube.reset();
    }
  });

  test("a failed request (unavailable video) costs nothing; keys usage --json reports minutes, cache hits and tokens per key", async () => {
    const env = storeEnv();
    const { key, id } = await createKey(env, "billed", undefined, ["--quota", "10min/day", "--quota", "100min/month"]);
    const other = await createKey(env, "other");
    llm.respondWith(() => ({ content: ANSWERS.en!, promptTokens: INPUT_TOKENS, completionTokens: OUTPUT_TOKENS }));
    service = await start(env);
    const failed = await ask(key, "summary", watchUrl("unavailable"));
    expect(failed.status).toBe(422);
    expect(quotaHeaders(failed)).toEqual(["10", "10", "10min/day"]);
    const calls = llm.calls.length;
    expect((await ask(key)).status).toBe(200);
    const spentCalls = llm.calls.length - calls;
    expect((await ask(key)).status).toBe(200);
    const stream = await ask(other.key, "summary", watchUrl("normal"), { accept: "text/event-stream" });
    expect((await readEvents(stream)).at(-1)?.event).toBe("done");
    const report = await usageOf(env, (keys) => keys.find((k) => k.id === other.id)?.requests === 1);
    const mine = report.find((k) => k.id === id)!;
    expect(mine).toMatchObject({
      name: "billed",
      period: new Date().toISOString().slice(0, 7),
      requests: 2,
      cacheHits: 1,
      minutes: 10,
      inputTokens: INPUT_TOKENS * spentCalls,
      outputTokens: OUTPUT_TOKENS * spentCalls,
      refused: { video_unavailable: 1 },
    });
    expect(mine.quotas.map((q) => [q.quota, q.limit, q.used, q.remaining])).toEqual([
      ["10min/day", 10, 10, 0],
      ["100min/month", 100, 10, 90],
    ]);
    expect(report.find((k) => k.id === other.id)).toMatchObject({
      requests: 1,
      cacheHits: 1,
      minutes: 5,
      inputTokens: 0,
    });
    const day = await usageOf(env, () => true, [id, "--period", "day"]);
    expect(day.map((k) => [k.id, k.period, k.minutes])).toEqual([[id, new Date().toISOString().slice(0, 10), 10]]);
    const table = await runKeys(env, ["usage"], { entry: true });
    expect(table.stdout).toMatch(new RegExp(`${id}\\s+billed\\s+\\S+\\s+2\\s+1\\s+10\\s+${INPUT_TOKENS * spentCalls}`));
  });

  test("usage survives a restart without Redis: a spent quota stays spent, the counts stay in the report", async () => {
    const env = storeEnv();
    const { key, id } = await createKey(env, "restarted", undefined, ["--quota", "2req/day"]);
    service = await start(env);
    expect((await ask(key, "first")).status).toBe(200);
    expect((await ask(key, "second")).status).toBe(200);
    expect(await service.stop("SIGTERM")).toBe(0);
    service = await start(env);
    const refused = await ask(key, "third");
    expect(refused.status).toBe(429);
    expect((await refused.json()).error.code).toBe("quota_exceeded");
    expect(quotaHeaders(refused)).toEqual(["2", "0", "2req/day"]);
    const report = await usageOf(env, (keys) => keys.find((k) => k.id === id)?.refused.quota_exceeded === 1);
    expect(report.find((k) => k.id === id)).toMatchObject({ requests: 2, refused: { quota_exceeded: 1 } });
  });

  test("keys update sets, removes (none) and restores (default) a key's quota; QUOTA is the default for every key", async () => {
    const env = storeEnv();
    const { key, id } = await createKey(env, "updated");
    service = await start({ ...env, QUOTA: "1req/day" });
    expect(quotaHeaders(await ask(key, "one"))).toEqual(["1", "0", "1req/day"]);
    expect((await ask(key, "two")).status).toBe(429);
    const none = await runKeys(env, ["update", id, "--quota", "none"]);
    expect(none.stdout).toContain(`Updated key ${id}`);
    const unlimited = await ask(key, "three");
    expect(unlimited.status).toBe(200);
    expect(unlimited.headers.get("quota-limit")).toBeNull();
    expect((await runKeys(env, ["update", id, "--quota", "5req/day", "--quota", "60min/month"])).code).toBe(0);
    // An answer to a key without a quota is written within about a second; from then on a new quota counts it.
    await usageOf(env, (keys) => keys.find((k) => k.id === id)?.requests === 2);
    expect(quotaHeaders(await ask(key, "four"))).toEqual(["5", "2", "5req/day"]);
    expect((await runKeys(env, ["update", id, "--quota", "default"])).code).toBe(0);
    expect((await ask(key, "five")).status).toBe(429);
    const bad = await runKeys(env, ["update", id, "--quota", "lots"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("600min/month");
    expect((await runKeys(env, ["update", "key_000000000000", "--quota", "none"])).code).toBe(1);
  });
});
