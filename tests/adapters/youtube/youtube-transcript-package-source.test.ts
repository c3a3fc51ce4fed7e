/** @module Tests of the `youtube-transcript` package source and of its cue normalisation. */
import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import {
  createYoutubeTranscriptPackageSource,
  normalise,
} from "../../../src/adapters/youtube/youtube-transcript-package-source.ts";
import { SRV3, truncatedTranscript } from "../../support/caption-bodies.ts";
import { startFakeYoutube } from "../../support/fake/youtube.ts";
import { VIDEOS } from "../../support/fixtures.ts";
import { failure } from "../../support/failure.ts";

const youtube = startFakeYoutube();
const source = createYoutubeTranscriptPackageSource({ baseUrl: youtube.origin, timeoutMs: 2_000 });

afterAll(() => youtube.close());
beforeEach(() => youtube.reset());

describe("createYoutubeTranscriptPackageSource()", () => {
  test("every request goes to the configured origin; the English track is taken, in seconds, with the video's length", async () => {
    const transcript = await source.fetch(VIDEOS.normal.id, { languages: ["en"], translate: true });
    expect(youtube.seen.map((s) => s.endpoint)).toEqual(["player", "caption"]);
    expect(youtube.seen[1]!.query.lang).toBe("en");
    expect(youtube.seen[1]!.query.fmt).toBeUndefined();
    expect(transcript).toMatchObject({ language: "en", durationSeconds: 316, isTranslated: false });
    expect(transcript.cues).toEqual([
      { start: 0, duration: 1.54, text: "Hey, this is just a test" },
      { start: 1.54, duration: 4.16, text: "this is not the original transcript" },
      { start: 5.7, duration: 3.239, text: "just something shorter, I made up for testing" },
    ]);
  });

  test("srv3 milliseconds become seconds", async () => {
    youtube.setCaption(VIDEOS.normal.id, SRV3);
    const transcript = await source.fetch(VIDEOS.normal.id, { languages: ["en"], translate: true });
    expect(transcript.cues.map((c) => [c.start, c.duration])).toEqual([[0, 1.54], [1.54, 4.16], [5.7, 3.239]]);
  });

  test("a language without a track falls back to the video's default track, not the first (Chinese) one", async () => {
    const transcript = await source.fetch(VIDEOS.normal.id, { languages: ["pt"], translate: true });
    expect(transcript.language).toBe("en");
  });

  test.each([
    ["empty (PoToken-gated)", ""],
    ["truncated", truncatedTranscript()],
  ])("a caption body that is %s is upstream_error, never a transcript", async (_, body) => {
    youtube.setCaption(VIDEOS.normal.id, body);
    expect((await failure(source.fetch(VIDEOS.normal.id, { languages: ["en"], translate: true }))).code).toBe(
      "upstream_error",
    );
  });

  test("a reCAPTCHA watch page is upstream_blocked, not 'transcript disabled'", async () => {
    youtube.setFault("player", { kind: "status", status: 500 });
    youtube.setWatch("recaptcha");
    expect((await failure(source.fetch(VIDEOS.normal.id, { languages: ["en"], translate: true }))).code).toBe(
      "upstream_blocked",
    );
  });

  test("an unavailable video is not reported as a transcript (upstream_error, the package's verdict is not trusted)", async () => {
    expect((await failure(source.fetch(VIDEOS.unavailable.id, { languages: ["en"], translate: true }))).code).toBe(
      "upstream_error",
    );
  });

  test("a hanging caption request ends as upstream_timeout", async () => {
    const quick = createYoutubeTranscriptPackageSource({ baseUrl: youtube.origin, timeoutMs: 300 });
    youtube.setFault("caption", { kind: "hang" });
    const started = performance.now();
    expect((await failure(quick.fetch(VIDEOS.normal.id, { languages: ["en"], translate: true }))).code).toBe(
      "upstream_timeout",
    );
    expect(performance.now() - started).toBeLessThan(1_500);
  });
});

describe("normalise()", () => {
  test("drops empty and unnumbered cues, decodes leftover entities and markup", () => {
    const items = [
      { text: "a &amp;amp; <b>b</b>", offset: 1, duration: 2 },
      { text: "   ", offset: 3, duration: 1 },
      { text: "x", offset: Number.NaN, duration: 1 },
    ];
    expect(normalise(items, "classic")).toEqual([{ start: 1, duration: 2, text: "a & b" }]);
  });

  test("gives nothing when the caption body was not seen whole", () => {
    expect(normalise([{ text: "a", offset: 1, duration: 2 }], "broken")).toEqual([]);
    expect(normalise([{ text: "a", offset: 1, duration: 2 }], undefined)).toEqual([]);
  });
});
