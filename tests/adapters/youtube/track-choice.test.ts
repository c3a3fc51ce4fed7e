/** @module Tests of caption track choice: wanted languages, manual tracks, defaults and translation. */
import { describe, expect, test } from "bun:test";
import type { CaptionTrack, PlayerInfo } from "../../../src/adapters/youtube/player-response.ts";
import { readPlayerResponse } from "../../../src/adapters/youtube/player-response.ts";
import { chooseTrack, sameLanguage } from "../../../src/adapters/youtube/track-choice.ts";
import { fixture, VIDEOS } from "../../support/fixtures.ts";

const normal = readPlayerResponse(JSON.parse(fixture(VIDEOS.normal.player)), VIDEOS.normal.id);
const twoTracks = readPlayerResponse(JSON.parse(fixture(VIDEOS.twoTracks.player)), VIDEOS.twoTracks.id);
const track = (languageCode: string, isGenerated = false, isTranslatable = true): CaptionTrack => ({
  baseUrl: `/api/timedtext?lang=${languageCode}`,
  languageCode,
  isGenerated,
  isTranslatable,
});
const info = (tracks: CaptionTrack[], extra: Partial<PlayerInfo> = {}): PlayerInfo => ({
  tracks,
  translationLanguages: ["en", "es", "pt", "ru", "hi"],
  ...extra,
});

describe("chooseTrack()", () => {
  test("takes the wanted language's manual track before its auto-generated one", () => {
    const choice = chooseTrack(normal, ["en"], true)!;
    expect(choice.track).toMatchObject({ languageCode: "en", isGenerated: false });
    expect(choice.translateTo).toBeUndefined();
  });

  test("takes a track in the wanted language when there is one, without translation", () => {
    expect(chooseTrack(normal, ["es"], true)).toMatchObject({ track: { languageCode: "es" } });
    expect(chooseTrack(normal, ["hi"], true)).toMatchObject({ track: { languageCode: "hi" } });
  });

  test("falls back to the next wanted language (de,en gives en on the two-track video)", () => {
    expect(chooseTrack(twoTracks, ["de", "en"], false)).toEqual({
      track: expect.objectContaining({ languageCode: "en", isGenerated: false }),
    });
  });

  test("with no track in the wanted language, asks YouTube to translate the default track (tlang)", () => {
    expect(chooseTrack(normal, ["pt"], true)).toEqual({
      track: expect.objectContaining({ languageCode: "en", isGenerated: false }),
      translateTo: "pt",
    });
    expect(chooseTrack(twoTracks, ["ru"], true)).toMatchObject({
      track: { languageCode: "en", isGenerated: false },
      translateTo: "ru",
    });
  });

  test("uses the default track untranslated when translation is not wanted, not the first (Chinese) track", () => {
    expect(chooseTrack(normal, ["pt"], false)).toEqual({
      track: expect.objectContaining({ languageCode: "en", isGenerated: false }),
    });
  });

  test("does not translate a track that is not translatable, or into a language YouTube does not list", () => {
    expect(chooseTrack(info([track("de", false, false)]), ["es"], true)).toEqual({
      track: expect.objectContaining({ languageCode: "de" }),
    });
    expect(chooseTrack(info([track("de")], { translationLanguages: ["fr"] }), ["es"], true)?.translateTo)
      .toBeUndefined();
  });

  test("prefers the manual track in the default track's language when the default is auto-generated", () => {
    const tracks = [track("fr"), track("de", true), track("de")];
    expect(chooseTrack(info(tracks, { defaultTrackIndex: 1 }), ["ja"], false)?.track).toBe(tracks[2]!);
  });

  test("without a default track, takes the first manual track over an earlier auto-generated one", () => {
    const tracks = [track("de", true), track("fr")];
    expect(chooseTrack(info(tracks), ["ja"], false)?.track).toBe(tracks[1]!);
  });

  test("en-US satisfies a wish for en, and the reverse", () => {
    const tracks = [track("de"), track("en-US")];
    expect(chooseTrack(info(tracks), ["en"], true)).toEqual({ track: tracks[1]! });
    expect(sameLanguage("en", "en-GB")).toBe(true);
    expect(sameLanguage("pt-BR", "pt")).toBe(true);
    expect(sameLanguage("es", "en")).toBe(false);
  });

  test("gives nothing for a video without tracks", () => {
    expect(chooseTrack(info([]), ["en"], true)).toBeUndefined();
  });
});
