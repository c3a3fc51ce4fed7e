/** @module Tests of audio-formats.ts: the audio-only formats read from a player response. */
import { describe, expect, test } from "bun:test";
import { lowestDirectAudio, readAudioFormats } from "../../../src/adapters/youtube/audio-formats.ts";
import { fixture, VIDEOS } from "../../support/fixtures.ts";

describe("readAudioFormats", () => {
  test("lists the captured response's audio-only formats, lowest bitrate first, with their size and length", () => {
    const formats = readAudioFormats(JSON.parse(fixture(VIDEOS.captionsDisabled.player)).streamingData);
    expect(formats.map((f) => f.itag)).toEqual([139, 249, 250, 140, 251]);
    expect(formats[0]).toMatchObject({
      mimeType: 'audio/mp4; codecs="mp4a.40.5"',
      bitrate: 50_002,
      contentLength: 1_758_945,
      durationSeconds: 288.345,
    });
    expect(formats.every((f) => f.url?.startsWith("https://"))).toBe(true);
  });

  test("keeps a format without a direct URL (signatureCipher) but never chooses it", () => {
    const formats = readAudioFormats({
      adaptiveFormats: [
        { itag: 249, mimeType: 'audio/webm; codecs="opus"', bitrate: 50_000, signatureCipher: "s=x&url=..." },
        { itag: 251, mimeType: 'audio/webm; codecs="opus"', bitrate: 150_000, url: "https://x/videoplayback?itag=251" },
      ],
    });
    expect(formats.map((f) => [f.itag, f.url === undefined])).toEqual([[249, true], [251, false]]);
    expect(lowestDirectAudio(formats)?.itag).toBe(251);
    expect(lowestDirectAudio([])).toBeUndefined();
  });

  test("ignores video formats and garbage, and reads no list as none", () => {
    expect(readAudioFormats(undefined)).toEqual([]);
    expect(readAudioFormats({ adaptiveFormats: "no" })).toEqual([]);
    expect(
      readAudioFormats({
        adaptiveFormats: [null, 7, { itag: 137, mimeType: "video/mp4" }, { itag: "x", mimeType: "audio/webm" }, {
          itag: 5,
          mimeType: "audio/ogg",
        }],
      }),
    ).toEqual([]);
  });
});
