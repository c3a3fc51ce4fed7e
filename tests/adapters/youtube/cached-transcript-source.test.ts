/** @module Tests of the cached transcript source: shared fetches, keys, expiry, failures and lookup metrics. */
import { describe, expect, test } from "bun:test";
import { createCachedTranscriptSource, transcriptKey } from "../../../src/adapters/youtube/cached-transcript-source.ts";
import { createMemoryCache } from "../../../src/adapters/cache/memory-cache.ts";
import { AppError } from "../../../src/domain/errors.ts";
import type { TranscriptSource } from "../../../src/domain/ports.ts";
import { heardNothing, type Transcript, type TranscriptQuery } from "../../../src/domain/transcript.ts";

/** A source that counts fetches and answers when released. */
function slowSource() {
  const calls: { videoId: string; query: TranscriptQuery }[] = [];
  let release: () => void = () => {};
  let gate = new Promise<void>((resolve) => (release = resolve));
  const source: TranscriptSource = {
    async fetch(videoId, query) {
      calls.push({ videoId, query });
      await gate;
      if (videoId === "failing0001") throw new AppError("upstream_error", "fake failure");
      return {
        videoId,
        language: query.languages[0] ?? "en",
        isGenerated: false,
        isTranslated: false,
        cues: [{ start: 0, duration: 1, text: "hi" }],
      } satisfies Transcript;
    },
  };
  return {
    source,
    calls,
    release: () => release(),
    rearm: () => (gate = new Promise<void>((resolve) => (release = resolve))),
  };
}

const en = { languages: ["en"] as const, translate: true };

describe("createCachedTranscriptSource()", () => {
  test("50 concurrent fetches of one video share one fetch; a repeat within the TTL makes none", async () => {
    const slow = slowSource();
    const cached = createCachedTranscriptSource({
      source: slow.source,
      cache: createMemoryCache({ maxEntries: 10 }),
      ttlMs: 60_000,
    });
    const all = Promise.all(Array.from({ length: 50 }, () => cached.fetch("GJLlxj_dtq8", en)));
    slow.release();
    const results = await all;
    expect(slow.calls).toHaveLength(1);
    expect(new Set(results).size).toBe(1);
    await cached.fetch("GJLlxj_dtq8", en);
    expect(slow.calls).toHaveLength(1);
  });

  test("the first caller's rereading flag and observer reach the source; a cached or shared fetch counts nothing", async () => {
    const slow = slowSource();
    const cached = createCachedTranscriptSource({
      source: slow.source,
      cache: createMemoryCache({ maxEntries: 10 }),
      ttlMs: 60_000,
    });
    const counts = [0, 0, 0];
    const first = cached.fetch("GJLlxj_dtq8", {
      ...en,
      rereading: true,
      observer: { request: () => (counts[0]! += 1) },
    });
    const shared = cached.fetch("GJLlxj_dtq8", {
      ...en,
      rereading: true,
      observer: { request: () => (counts[1]! += 1) },
    });
    for (let turn = 0; turn < 100 && slow.calls.length === 0; turn++) await Bun.sleep(1);
    expect(slow.calls[0]!.query.rereading).toBe(true);
    slow.calls[0]!.query.observer?.request?.();
    slow.release();
    await Promise.all([first, shared]);
    await cached.fetch("GJLlxj_dtq8", { ...en, observer: { request: () => (counts[2]! += 1) } });
    expect(slow.calls).toHaveLength(1);
    expect(counts).toEqual([1, 0, 0]);
  });

  test("the language and the translate flag are part of the key", async () => {
    const slow = slowSource();
    slow.release();
    const cached = createCachedTranscriptSource({
      source: slow.source,
      cache: createMemoryCache({ maxEntries: 10 }),
      ttlMs: 60_000,
    });
    expect((await cached.fetch("GJLlxj_dtq8", { languages: ["es"], translate: true })).language).toBe("es");
    expect((await cached.fetch("GJLlxj_dtq8", en)).language).toBe("en");
    await cached.fetch("GJLlxj_dtq8", { languages: ["en"], translate: false });
    expect(slow.calls).toHaveLength(3);
    expect(transcriptKey("a", en)).not.toBe(transcriptKey("a", { languages: ["en"], translate: false }));
  });

  test("an expired entry is fetched again", async () => {
    let now = 0;
    const slow = slowSource();
    slow.release();
    const cached = createCachedTranscriptSource({
      source: slow.source,
      cache: createMemoryCache({ maxEntries: 10, now: () => now }),
      ttlMs: 1_000,
    });
    await cached.fetch("GJLlxj_dtq8", en);
    now = 999;
    await cached.fetch("GJLlxj_dtq8", en);
    now = 1_000;
    await cached.fetch("GJLlxj_dtq8", en);
    expect(slow.calls).toHaveLength(2);
  });

  test("speech that heard nothing is cached as any transcript, for every language: transcribed once", async () => {
    const calls: string[] = [];
    const silent: TranscriptSource = {
      fetch: async (videoId, query) => {
        calls.push(query.languages.join());
        return {
          videoId,
          language: "en",
          isGenerated: true,
          isTranslated: false,
          cues: [],
          speech: { audioSeconds: 60, uploads: 3, sttMs: 5 },
        } satisfies Transcript;
      },
    };
    const cached = createCachedTranscriptSource({
      source: silent,
      cache: createMemoryCache({ maxEntries: 10 }),
      ttlMs: 60_000,
      speech: true,
    });
    expect(heardNothing(await cached.fetch("silentvideo", en))).toBe(true);
    expect(heardNothing(await cached.fetch("silentvideo", en))).toBe(true);
    expect(heardNothing(await cached.fetch("silentvideo", { languages: ["de"], translate: true }))).toBe(true);
    expect(calls).toEqual(["en"]);
  });

  test("failures are shared by the waiting callers but not cached", async () => {
    const slow = slowSource();
    const cached = createCachedTranscriptSource({
      source: slow.source,
      cache: createMemoryCache({ maxEntries: 10 }),
      ttlMs: 60_000,
    });
    const both = Promise.allSettled([cached.fetch("failing0001", en), cached.fetch("failing0001", en)]);
    slow.release();
    expect((await both).map((r) => r.status)).toEqual(["rejected", "rejected"]);
    await cached.fetch("failing0001", en).catch(() => {});
    expect(slow.calls).toHaveLength(2);
  });

  test("a caller whose signal aborts stops waiting, without failing the others or the shared fetch", async () => {
    const slow = slowSource();
    const cached = createCachedTranscriptSource({
      source: slow.source,
      cache: createMemoryCache({ maxEntries: 10 }),
      ttlMs: 60_000,
    });
    const controller = new AbortController();
    const impatient = cached.fetch("GJLlxj_dtq8", { ...en, signal: controller.signal });
    const patient = cached.fetch("GJLlxj_dtq8", en);
    controller.abort();
    await expect(impatient).rejects.toMatchObject({ code: "upstream_timeout" });
    slow.release();
    expect((await patient).videoId).toBe("GJLlxj_dtq8");
    expect(slow.calls[0]!.query.signal?.aborted).toBe(false);
  });

  test("the shared fetch stops once none of its callers waits any more: nothing upstream runs for nobody", async () => {
    const slow = slowSource();
    const cached = createCachedTranscriptSource({
      source: slow.source,
      cache: createMemoryCache({ maxEntries: 10 }),
      ttlMs: 60_000,
    });
    const [first, second] = [new AbortController(), new AbortController()];
    const fetches = [first, second].map((c) =>
      cached.fetch("GJLlxj_dtq8", { ...en, signal: c.signal }).catch(() => {})
    );
    await Bun.sleep(5);
    first.abort();
    await fetches[0];
    expect(slow.calls[0]!.query.signal?.aborted).toBe(false);
    second.abort();
    await fetches[1];
    expect(slow.calls).toHaveLength(1);
    expect(slow.calls[0]!.query.signal?.aborted).toBe(true);
  });

  test("a cache that fails is treated as a miss", async () => {
    const slow = slowSource();
    slow.release();
    const broken = { get: () => Promise.reject(new Error("down")), set: () => Promise.reject(new Error("down")) };
    const cached = createCachedTranscriptSource({ source: slow.source, cache: broken, ttlMs: 60_000 });
    expect((await cached.fetch("GJLlxj_dtq8", en)).cues).toHaveLength(1);
  });
});

describe("transcript-cache lookups told to observe", () => {
  test("concurrent fetches are one miss and the rest shared, a repeat is a hit, and a failed fetch still counts its miss", async () => {
    const slow = slowSource();
    const lookups: string[] = [];
    const cached = createCachedTranscriptSource({
      source: slow.source,
      cache: createMemoryCache({ maxEntries: 10 }),
      ttlMs: 60_000,
      observe: (result) => lookups.push(result),
    });
    const all = Promise.all([cached.fetch("GJLlxj_dtq8", en), cached.fetch("GJLlxj_dtq8", en)]);
    slow.release();
    await all;
    await cached.fetch("GJLlxj_dtq8", en);
    await expect(cached.fetch("failing0001", en)).rejects.toThrow();
    expect(lookups).toEqual(["miss", "shared", "hit", "miss"]);
  });
});
