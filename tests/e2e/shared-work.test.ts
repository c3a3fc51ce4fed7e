/** @module End-to-end tests of work shared across instances: one upstream call each, refusals, killed owners. */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { Redis } from "ioredis";
import { ANSWERS, type FakeLlm, startFakeLlm } from "../support/fake/llm.ts";
import { type FakeYoutube, startFakeYoutube } from "../support/fake/youtube.ts";
import { type VideoName, watchUrl } from "../support/fixtures.ts";
import { type LogLine, requestLogLines } from "../support/request-log-lines.ts";
import { postChat, type RunningService, startService, targetFromEnv } from "../support/service/process.ts";
import { type OwnRedis, startOwnRedis } from "../support/redis-server.ts";

const KEY = "e2e-shared-work-key-0123456789";
const REQUEST_TIMEOUT_MS = 8_000;
let redis: OwnRedis;
let youtube: FakeYoutube;
let llm: FakeLlm;
let env: Record<string, string>;
let instances: RunningService[] = [];

beforeAll(async () => {
  redis = await startOwnRedis();
  // Latency keeps the first fetch in flight while the other requests arrive.
  youtube = startFakeYoutube({ latencyMs: 100 });
  llm = startFakeLlm();
  // A short lease, so a dead owner is taken over in well under a second.
  env = {
    REDIS_URL: redis.url,
    API_KEYS: KEY,
    YOUTUBE_BASE_URL: youtube.origin,
    GROQ_API_KEY: "gsk_fake",
    GROQ_BASE_URL: llm.baseUrl,
    SHARED_WORK_LEASE_MS: "400",
    LLM_TOKENS_PER_MINUTE: "100000000",
    LLM_REQUESTS_PER_MINUTE: "1000000",
    REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
  };
  instances = await Promise.all([startService(env), startService(env), startService(env)]);
});
afterAll(async () => {
  await Promise.all(instances.map((s) => s.stop("SIGKILL")));
  await youtube?.close();
  await llm?.close();
  await redis?.dispose();
});
beforeEach(async () => {
  const admin = new Redis(redis.url);
  await admin.flushall();
  admin.disconnect();
  youtube.reset();
  llm.reset();
});

interface Answered {
  status: number;
  body: string;
  ms: number;
  log: LogLine;
}

async function ask(service: RunningService, prompt: string, video: VideoName = "normal"): Promise<Answered> {
  const started = performance.now();
  const response = await postChat(service.url, { url: watchUrl(video), prompt }, { "x-api-key": KEY });
  const body = await response.text();
  const ms = performance.now() - started;
  const [log] = await requestLogLines(service, response);
  return { status: response.status, body, ms, log: log ?? {} };
}

const slowLlm = (ms: number) => llm.respondWith(() => ({ content: ANSWERS.en!, delayMs: ms }));
const upstream = () => [youtube.count("player"), youtube.count("caption"), llm.calls.length];
const lines = (service: RunningService, event: string) =>
  service.output().split("\n").filter((l) => l.includes(`"event":"${event}"`)).length;

describe(`three instances sharing work in flight through one Redis (${targetFromEnv()})`, () => {
  test("60 identical cold requests round-robin make 1 player, 1 caption and 1 LLM call in all; every caller gets the same 200", async () => {
    slowLlm(800);
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => ask(instances[i % 3]!, "What is said about the keyboard?")),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(60).fill(200));
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    expect(upstream()).toEqual([1, 1, 1]);
    const owners = answers.filter((a) => a.log.work === "owner");
    expect(owners).toHaveLength(1);
    expect(owners[0]!.log.cache).toBe("miss");
    const others = answers.filter((a) => a.log.work !== "owner");
    expect(others.every((a) => a.log.cache === "shared")).toBe(true);
    expect(others.filter((a) => a.log.work === "local")).toHaveLength(19);
    expect(others.filter((a) => a.log.work === "remote")).toHaveLength(40);
  });

  test("distinct questions on one video share the transcript fetch across instances, but not the answer", async () => {
    slowLlm(100);
    const answers = await Promise.all(
      Array.from({ length: 9 }, (_, i) => ask(instances[i % 3]!, `Question number ${i}?`)),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(9).fill(200));
    expect(upstream()).toEqual([1, 1, 9]);
    expect(answers.every((a) => a.log.work === "owner" && a.log.cache === "miss")).toBe(true);
  });

  test("a refusal reaches every waiting caller on every instance, and is not kept: a repeat asks YouTube again", async () => {
    youtube.setFault("player", { kind: "delay", ms: 300 });
    const answers = await Promise.all(
      Array.from({ length: 9 }, (_, i) => ask(instances[i % 3]!, "summary", "unavailable")),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(9).fill(422));
    expect(answers.every((a) => JSON.parse(a.body).error.code === "video_unavailable")).toBe(true);
    expect(youtube.count("player")).toBe(1);
    expect((await ask(instances[1]!, "summary", "unavailable")).status).toBe(422);
    expect(youtube.count("player")).toBe(2);
  });

  test("the working instance SIGKILLed mid-generation: every caller on the others gets a 200 in time, and one new generation starts", async () => {
    llm.respondWith((_call, index) => ({ content: ANSWERS.en!, delayMs: index === 0 ? 5_000 : 200 }));
    const [victim, ...survivors] = instances as [RunningService, RunningService, RunningService];
    const first = ask(victim, "summary").catch(() => undefined);
    while (llm.calls.length === 0) await Bun.sleep(10);
    const waiting = Array.from({ length: 20 }, (_, i) => ask(survivors[i % 2]!, "summary"));
    await Bun.sleep(200);
    await victim.stop("SIGKILL");
    const answers = await Promise.all(waiting);
    await first;
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(Math.max(...answers.map((a) => a.ms))).toBeLessThan(REQUEST_TIMEOUT_MS);
    expect(llm.calls).toHaveLength(2);
    expect(answers.filter((a) => a.log.work === "owner")).toHaveLength(1);
    instances[0] = await startService(env);
  });

  test("Redis stopped mid-test: every request is still answered, and each instance says so once", async () => {
    slowLlm(300);
    const inFlight = Array.from({ length: 9 }, (_, i) => ask(instances[i % 3]!, "Asked while Redis stops?"));
    await Bun.sleep(150);
    await redis.stop();
    const during = await Promise.all(inFlight);
    const after = await Promise.all(
      Array.from({ length: 9 }, (_, i) => ask(instances[i % 3]!, `Asked after Redis stopped ${i % 2}?`)),
    );
    expect([...during, ...after].map((a) => a.status)).toEqual(Array(18).fill(200));
    expect(Math.max(...during.map((a) => a.ms), ...after.map((a) => a.ms))).toBeLessThan(3_000);
    // Still coalesced within each instance: two prompts on three instances.
    expect(after.filter((a) => a.log.work === "owner")).toHaveLength(6);
    for (const service of instances) expect(lines(service, "redis_unavailable")).toBe(1);
  });
});
