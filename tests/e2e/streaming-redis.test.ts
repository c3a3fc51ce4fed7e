/** @module End-to-end tests of streamed answers for work running on another instance through Redis. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type FakeLlm, startFakeLlm } from "../support/fake/llm.ts";
import { type FakeYoutube, startFakeYoutube } from "../support/fake/youtube.ts";
import { watchUrl } from "../support/fixtures.ts";
import { type RunningService, startService, targetFromEnv } from "../support/service/process.ts";
import { deltaText, eventNames, type ReadEvent, readEvents } from "../support/sse.ts";
import { dropPrefix, testRedisUrl, uniquePrefix } from "../support/redis-server.ts";

const KEY = "e2e-stream-redis-key-0123456";
const redisUrl = testRedisUrl();
const PREFIX = uniquePrefix("e2e-stream");
let youtube: FakeYoutube;
let llm: FakeLlm;
let a: RunningService;
let b: RunningService;
let c: RunningService;

beforeAll(async () => {
  youtube = startFakeYoutube();
  llm = startFakeLlm();
  const env = {
    API_KEYS: KEY,
    REDIS_URL: redisUrl,
    REDIS_KEY_PREFIX: PREFIX,
    YOUTUBE_BASE_URL: youtube.origin,
    GROQ_API_KEY: "gsk_fake",
    GROQ_BASE_URL: llm.baseUrl,
    LLM_TOKENS_PER_MINUTE: "100000000",
    LLM_REQUESTS_PER_MINUTE: "1000000",
    SHARED_WORK_LEASE_MS: "1000",
  };
  [a, b, c] = await Promise.all([startService(env), startService(env), startService(env)]);
});
afterAll(async () => {
  await Promise.all([a?.stop("SIGKILL"), b?.stop("SIGKILL"), c?.stop("SIGKILL")]);
  await youtube?.close();
  await llm?.close();
  await dropPrefix(redisUrl, PREFIX);
});

const stream = (service: RunningService, prompt: string) =>
  fetch(`${service.url}/chat`, {
    method: "POST",
    headers: { "x-api-key": KEY, accept: "text/event-stream", "content-type": "application/json" },
    body: JSON.stringify({ url: watchUrl("normal"), prompt }),
  });

const DYING = [
  "The reviewer likes the keyboard cover and the bright screen of this small and light tablet [0:01].",
  "Battery life is modest: about nine hours of light use, enough for a working day [0:01].",
  "The kickstand holds at many angles, which helps on a desk, a train table or the knees [0:01].",
  "In short, a good small tablet for the price, provided you buy the keyboard cover too [0:01].",
].join("\n\n");
const deltas = (events: ReadEvent[]) => events.filter((e) => e.event === "delta").map((e) => e.data.text as string);

describe(`streams across three instances on one Redis (${targetFromEnv()})`, () => {
  test(
    "streams waiting for another instance's work get its progress and the same deltas as its own caller, replayed then followed; one LLM call in all",
    async () => {
      const content = [
        "The reviewer likes the keyboard cover and the screen of this small tablet [0:01].",
        "Battery life is modest: about nine hours of light use, enough for a day [0:01].",
        "The kickstand holds at many angles, which helps on a desk or on the knees [0:01].",
        "In short, a good small tablet for the price, if you need the keyboard [0:01].",
      ].join("\n\n");
      llm.respondWith(() => ({ content, chunkChars: 8, chunkDelayMs: 30 }));
      const ownerEvents: ReadEvent[] = [];
      const first = readEvents(await stream(a, "shared stream?"), {
        stopAfter: (events) => (ownerEvents.splice(0, ownerEvents.length, ...events), false),
      });
      while (llm.calls.length === 0) await Bun.sleep(10);
      const started = performance.now();
      const early = await stream(c, "shared stream?"); // before any delta: follows from the start
      expect(early.status).toBe(200);
      expect(performance.now() - started).toBeLessThan(1_000);
      while (!ownerEvents.some((e) => e.event === "delta")) await Bun.sleep(10);
      const late = await stream(b, "shared stream?"); // after some deltas: replays them, then follows
      const [owner, waiterB, waiterC] = await Promise.all([first, readEvents(late), readEvents(early)]);
      for (const waiter of [waiterB, waiterC]) {
        const names = eventNames(waiter);
        expect(names[0]).toBe("progress");
        expect(names.at(-1)).toBe("done");
        expect(names.filter((n) => n === "delta").length).toBeGreaterThanOrEqual(2);
        expect(deltas(waiter)).toEqual(deltas(owner));
        expect(deltaText(waiter)).toBe(waiter.at(-1)!.data.output);
        expect(waiter.at(-1)!.data).toEqual(owner.at(-1)!.data);
      }
      expect(waiterC.filter((e) => e.event === "delta")[0]!.at).toBeLessThan(owner.at(-1)!.at);
      expect(llm.calls).toHaveLength(1);
    },
    30_000,
  );

  test(
    "a stream waiting for a JSON request's work on another instance gets its progress, then the whole text as one delta, then done",
    async () => {
      const content = "A plain answer about the small tablet and its keyboard cover [0:01].";
      llm.reset();
      llm.respondWith(() => ({ content, chunkChars: 6, chunkDelayMs: 40, delayMs: 300 }));
      const json = fetch(`${a.url}/chat`, {
        method: "POST",
        headers: { "x-api-key": KEY, "content-type": "application/json" },
        body: JSON.stringify({ url: watchUrl("normal"), prompt: "json owner?" }),
      });
      while (llm.calls.length === 0) await Bun.sleep(10);
      const waiter = await readEvents(await stream(b, "json owner?"));
      const body = await (await json).json();
      expect(eventNames(waiter).filter((n) => n !== "progress")).toEqual(["delta", "done"]);
      expect(eventNames(waiter)).toContain("progress");
      expect(deltaText(waiter)).toBe(content);
      expect(waiter.at(-1)!.data).toEqual(body);
      expect(llm.calls).toHaveLength(1);
    },
    30_000,
  );

  /** A streamed caller on `waiter` follows `owner`'s work, `owner` dies after a delta went out, and `waiter` takes the work over. */
  async function ownerDies(
    owner: RunningService,
    waiter: RunningService,
    prompt: string,
    second: string,
  ): Promise<ReadEvent[]> {
    llm.reset();
    llm.respondWith(
      () => (llm.calls.length === 1 ? { content: DYING, chunkChars: 6, chunkDelayMs: 50 } : { content: second }),
    );
    readEvents(await stream(owner, prompt)).catch(() => []); // cut when its instance dies
    while (llm.calls.length === 0) await Bun.sleep(10);
    const seen: ReadEvent[] = [];
    const reading = readEvents(await stream(waiter, prompt), {
      stopAfter: (events) => (seen.splice(0, seen.length, ...events), false),
    });
    while (!seen.some((e) => e.event === "delta")) await Bun.sleep(10);
    await owner.stop("SIGKILL");
    const before = deltaText(seen);
    const events = await reading;
    expect(deltaText(events)).toStartWith(before);
    expect(DYING).toStartWith(before);
    expect(before.length).toBeLessThan(DYING.length);
    expect(llm.calls).toHaveLength(2);
    return events;
  }

  test(
    "the owner dies mid-answer and the work is written again differently: the waiting stream ends with upstream_error, its deltas all of the first answer",
    async () => {
      const events = await ownerDies(a, b, "owner dies?", "Quite another answer about the tablet [0:01].");
      expect(events.at(-1)!.event).toBe("error");
      expect(events.at(-1)!.data.error.code).toBe("upstream_error");
      expect(eventNames(events)).not.toContain("done");
      expect(DYING).toStartWith(deltaText(events));
    },
    30_000,
  );

  test(
    "the owner dies mid-answer and the work is written again the same: the waiting stream gets the rest, then done, byte for byte",
    async () => {
      const events = await ownerDies(c, b, "owner dies again?", DYING);
      expect(events.at(-1)!.event).toBe("done");
      expect(deltaText(events)).toBe(DYING);
      expect(events.at(-1)!.data.output).toBe(DYING);
    },
    30_000,
  );
});
