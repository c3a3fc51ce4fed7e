/** @module End-to-end tests of the in-process transcript cache's bound in bytes (TRANSCRIPT_CACHE_MB). */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { VIDEOS } from "../support/fixtures.ts";
import { captionXml, generateCues } from "../support/long-transcript.ts";
import { targetFromEnv } from "../support/service/process.ts";
import { ask, startYoutubeRig, type YoutubeRig } from "../support/service/youtube.ts";

let rig: YoutubeRig;

beforeAll(async () => {
  // 2 MB of transcripts: one 3-hour transcript (about 0.5 MB of heap, and as much again for the lines and scores an
  // answer keeps with it) fits, two do not, a 12-hour one (2.1 MB alone) never does.
  rig = await startYoutubeRig({ TRANSCRIPT_CACHE_TTL_MS: "600000", TRANSCRIPT_CACHE_MB: "2" });
});
afterAll(() => rig?.close());

const captions = () => rig.youtube.count("caption");

describe(`the transcript cache is bounded in bytes (${targetFromEnv()})`, () => {
  test("a transcript larger than the whole bound is not kept: each request fetches it", async () => {
    rig.youtube.setCaption(VIDEOS.twoTracks.id, captionXml(generateCues(12 * 3600)));
    const start = captions();
    expect((await ask(rig.service, VIDEOS.twoTracks.id, { prompt: "What is it about?" })).status).toBe(200);
    expect((await ask(rig.service, VIDEOS.twoTracks.id, { prompt: "And then?" })).status).toBe(200);
    expect(captions()).toBe(start + 2);
  });
  test("TRANSCRIPT_CACHE_MB=2: a second 3-hour transcript evicts the first (least recently used), not the count", async () => {
    rig.youtube.setCaption(VIDEOS.normal.id, captionXml(generateCues(3 * 3600)));
    rig.youtube.setCaption(VIDEOS.twoTracks.id, captionXml(generateCues(3 * 3600)));
    const start = captions();
    const first = await ask(rig.service, VIDEOS.normal.id, { prompt: "What is it about?" });
    expect([first.status, first.code, first.message]).toEqual([200, undefined, undefined]);
    expect((await ask(rig.service, VIDEOS.normal.id, { prompt: "And the ending?" })).status).toBe(200);
    expect(captions()).toBe(start + 1);
    expect((await ask(rig.service, VIDEOS.twoTracks.id, { prompt: "What is it about?" })).status).toBe(200);
    expect(captions()).toBe(start + 2);
    expect((await ask(rig.service, VIDEOS.twoTracks.id, { prompt: "And the ending?" })).status).toBe(200);
    expect(captions()).toBe(start + 2);
    expect((await ask(rig.service, VIDEOS.normal.id, { prompt: "Once more?" })).status).toBe(200);
    expect(captions()).toBe(start + 3);
  });
});
