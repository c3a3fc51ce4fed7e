/** @module Tests of reading captured InnerTube player responses: tracks, length, refusals and reasons. */
import { describe, expect, test } from "bun:test";
import { isAppError } from "../../../src/domain/errors.ts";
import { playerVideoId, readPlayerResponse } from "../../../src/adapters/youtube/player-response.ts";
import { isUnreadable } from "../../../src/adapters/youtube/unreadable.ts";
import { fixture, type VideoName, VIDEOS } from "../../support/fixtures.ts";

const read = (name: VideoName) => readPlayerResponse(JSON.parse(fixture(VIDEOS[name].player)), VIDEOS[name].id);

function refusal(name: VideoName) {
  try {
    read(name);
  } catch (error) {
    if (isAppError(error)) return error;
    throw error;
  }
  throw new Error(`${name} was read as playable`);
}

describe("readPlayerResponse()", () => {
  test("reads the nine tracks, the length, the title and the default track of the normal video", () => {
    const info = read("normal");
    expect(info.tracks.map((t) => `${t.languageCode}${t.isGenerated ? "(asr)" : ""}`)).toEqual([
      "zh",
      "cs",
      "en",
      "en(asr)",
      "de",
      "hi",
      "ja",
      "ko",
      "es",
    ]);
    expect(info.tracks.every((t) => t.isTranslatable)).toBe(true);
    expect(info.lengthSeconds).toBe(316);
    expect(info.title).toContain("Surface Go");
    expect(info.defaultTrackIndex).toBe(2);
    expect(info.translationLanguages).toHaveLength(18);
  });

  test("reads the same tracks and length from the second capture of the same video", () => {
    const a = read("normal");
    // The capture is of the normal video: it is read as an answer about that video's id.
    const b = readPlayerResponse(JSON.parse(fixture(VIDEOS.alteredAgent.player)), VIDEOS.normal.id);
    expect(b.tracks.map((t) => [t.languageCode, t.isGenerated])).toEqual(
      a.tracks.map((t) => [t.languageCode, t.isGenerated]),
    );
    expect(b.lengthSeconds).toBe(316);
  });

  test("reads the two-track video: manual en, auto en, 17 translation languages without en", () => {
    const info = read("twoTracks");
    expect(info.tracks.map((t) => [t.languageCode, t.isGenerated])).toEqual([["en", false], ["en", true]]);
    expect(info.lengthSeconds).toBe(1509);
    expect(info.translationLanguages).toHaveLength(17);
  });

  test("gives no tracks, but the length, for both captions-disabled captures", () => {
    expect(read("captionsDisabled")).toMatchObject({ tracks: [], lengthSeconds: 288 });
    expect(read("pastLiveNoCaptions")).toMatchObject({ tracks: [], lengthSeconds: 23169 });
  });

  test.each(
    [
      ["ageRestricted", "video_age_restricted"],
      ["botCheck", "upstream_blocked"],
      ["unavailable", "video_unavailable"],
      ["unplayable", "video_unplayable"],
    ] as const,
  )("refuses %s with %s", (name, code) => {
    expect(refusal(name).code).toBe(code);
  });

  test("the bot check (curly apostrophe) asks the caller to retry after a while", () => {
    expect(refusal("botCheck").retryAfterSeconds).toBeGreaterThan(0);
  });

  test("the unplayable message carries YouTube's reason and sub-reasons, not the error screen's bot-check text", () => {
    const error = refusal("unplayable");
    expect(error.message).toBe("YouTube will not play video unplayable1: Custom Reason (Sub Reason 1 Sub Reason 2)");
  });

  test("a response without playability status, or not an object, is unreadable", () => {
    const noStatus = JSON.parse(fixture(VIDEOS.normal.player));
    delete noStatus.playabilityStatus;
    for (const bad of [noStatus, null, "text", 42]) {
      let caught: unknown;
      try {
        readPlayerResponse(bad, "x");
      } catch (error) {
        caught = error;
      }
      expect(isUnreadable(caught)).toBe(true);
    }
  });

  test("playerVideoId() names the video of a response, and nothing for other values", () => {
    expect(playerVideoId(JSON.parse(fixture(VIDEOS.normal.player)))).toBe(VIDEOS.normal.id);
    expect(playerVideoId(JSON.parse(fixture(VIDEOS.unavailable.player)))).toBeUndefined();
    expect(playerVideoId(null)).toBeUndefined();
  });
});
