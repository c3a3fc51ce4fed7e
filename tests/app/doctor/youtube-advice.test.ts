/** @module Tests of the YouTube check's verdict and advice: retired clients, blocked routes, gated tracks, audio. */
import { describe, expect, test } from "bun:test";
import { loadConfig } from "../../../src/app/config/config.ts";
import type { YoutubeRow } from "../../../src/app/doctor/probe.ts";
import { youtubeAdvice } from "../../../src/app/doctor/youtube-advice.ts";

const config = loadConfig({ YOUTUBE_CLIENTS: "ANDROID:20.10.38,IOS:21.26.4" });
const row = (route: string, client: string, more: Partial<YoutubeRow> = {}): YoutubeRow => ({
  route,
  client,
  use: client.startsWith("VISIONOS") ? "audio" : "captions",
  player: "ok",
  tracks: 9,
  captions: "ok (3 cues)",
  audio: "ok",
  ...more,
});
const failed = { tracks: null, captions: "-", audio: "-" } as const;

describe("youtubeAdvice()", () => {
  test("ok when one caption client read captions on one route; a retired one gets the table's newer version", () => {
    const verdict = youtubeAdvice([
      row("direct", "ANDROID 20.10.38", { player: "retired", ...failed }),
      row("direct", "IOS 21.26.4"),
      row("direct", "VISIONOS 1.02"),
    ], config);
    expect(verdict.ok).toBe(true);
    expect(verdict.summary).toBe("captions read by IOS 21.26.4 on direct");
    expect(verdict.advice).toHaveLength(1);
    expect(verdict.advice[0]).toStartWith(
      "YouTube refuses ANDROID 20.10.38 as retired: set YOUTUBE_CLIENTS=ANDROID:21.26.364,IOS:21.26.4;",
    );
  });

  test("captions read only by an audio client do not pass: the service never reads captions with it", () => {
    const verdict = youtubeAdvice([
      row("direct", "ANDROID 20.10.38", { player: "retired", ...failed }),
      row("direct", "IOS 21.26.4", { captions: "empty", player: "gated" }),
      row("direct", "VISIONOS 1.02"),
    ], config);
    expect(verdict.ok).toBe(false);
    expect(verdict.advice.join("\n")).toContain("proof-of-origin token");
  });

  test("a route where every client was blocked is named, to be replaced in YOUTUBE_PROXIES", () => {
    const verdict = youtubeAdvice([
      row("direct", "IOS 21.26.4", { player: "blocked", ...failed }),
      row("gate.example.net:7000", "IOS 21.26.4"),
    ], config);
    expect(verdict.ok).toBe(true);
    expect(verdict.advice).toEqual([
      "Route direct is blocked by YouTube (bot check, captcha or HTTP 429): replace it in YOUTUBE_PROXIES with " +
      "rotating residential proxies (docs/operating.md: When YouTube blocks)",
    ]);
  });

  test("no audio client reached audio: said, without failing the check", () => {
    const verdict = youtubeAdvice([
      row("direct", "IOS 21.26.4", { audio: "HTTP 403" }),
      row("direct", "VISIONOS 1.02", { audio: "HTTP 403" }),
    ], config);
    expect(verdict.ok).toBe(true);
    expect(verdict.advice.join("\n")).toContain("No client of YOUTUBE_AUDIO_CLIENTS reached a video's audio");
  });

  test("a version the table has no newer one for is left for the operator to look up", () => {
    const current = loadConfig({});
    const verdict = youtubeAdvice([row("direct", "ANDROID 21.26.364", { player: "retired", ...failed })], current);
    expect(verdict.advice[0]).toContain("YOUTUBE_CLIENTS=ANDROID:<newer version>,IOS:21.26.4");
    expect(verdict.advice[0]).toContain("yt_dlp/extractor/youtube/_base.py");
  });

  test("an unavailable video everywhere asks for another one", () => {
    const verdict = youtubeAdvice([row("direct", "IOS 21.26.4", { player: "unavailable", ...failed })], config);
    expect(verdict.ok).toBe(false);
    expect(verdict.advice).toContain(
      "YouTube says the video is unavailable everywhere: ask about another one with --video ID",
    );
  });
});
