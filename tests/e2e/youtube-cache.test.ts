/** @module End-to-end tests of the transcript cache: one YouTube fetch for concurrent requests, per language. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { VIDEOS } from "../support/fixtures.ts";
import { targetFromEnv } from "../support/service/process.ts";
import { ask, startYoutubeRig, type YoutubeRig } from "../support/service/youtube.ts";

let rig: YoutubeRig;

beforeAll(async () => {
  // Latency keeps the first fetch in flight while the other 49 requests arrive.
  // One key sends all 50: it may take every place of the bound on work in flight.
  rig = await startYoutubeRig({ TRANSCRIPT_CACHE_TTL_MS: "60000", MAX_IN_FLIGHT_PER_KEY: "64" }, { latencyMs: 150 });
});
afterAll(() => rig?.close());

describe(`transcript cache and coalescing (${targetFromEnv()})`, () => {
  test("50 concurrent requests for one uncached video make one player and one caption request; a repeat makes none", async () => {
    // Different prompts: the answer cache and answer coalescing must not be what merges them.
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, (_, i) => ask(rig.service, VIDEOS.normal.id, { prompt: `Question number ${i}?` })),
    );
    expect(outcomes.map((o) => o.status)).toEqual(Array(50).fill(200));
    expect([rig.youtube.count("player"), rig.youtube.count("caption")]).toEqual([1, 1]);
    expect(rig.llm.calls).toHaveLength(50);

    const repeat = await ask(rig.service, VIDEOS.normal.id, { prompt: "One more question?" });
    expect(repeat.status).toBe(200);
    expect([rig.youtube.count("player"), rig.youtube.count("caption")]).toEqual([1, 1]);
  });

  test("another answer language is another cache entry (its own track)", async () => {
    const before = rig.youtube.count("caption");
    expect((await ask(rig.service, VIDEOS.normal.id, { language: "es", prompt: "¿Qué dice?" })).status).toBe(200);
    expect(rig.youtube.count("caption")).toBe(before + 1);
    expect(rig.youtube.seen.at(-1)!.query.lang).toBe("es");
  });

  test("failures are not cached: a refused video is asked again", async () => {
    await ask(rig.service, VIDEOS.unavailable.id);
    const after = rig.youtube.count("player");
    expect((await ask(rig.service, VIDEOS.unavailable.id, { prompt: "again?" })).code).toBe("video_unavailable");
    expect(rig.youtube.count("player")).toBe(after + 1);
  });
});
