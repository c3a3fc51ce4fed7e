/** @module Tests of the YouTube call outcomes and timings reported to the observer. */
import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { createInnertubeTranscriptSource } from "../../../src/adapters/youtube/innertube-transcript-source.ts";
import {
  observeCall,
  type YoutubeCall,
  type YoutubeOutcome,
  youtubeOutcome,
} from "../../../src/adapters/youtube/observed-call.ts";
import { AppError } from "../../../src/domain/errors.ts";
import { startFakeYoutube } from "../../support/fake/youtube.ts";
import { VIDEOS } from "../../support/fixtures.ts";
import { innertubeClients } from "../../../src/adapters/youtube/innertube-clients.ts";

const youtube = startFakeYoutube();
const clients = innertubeClients([{ name: "ANDROID", version: "21.26.364" }, { name: "IOS", version: "21.26.4" }]);
let seen: string[] = [];
const observe = (call: YoutubeCall, outcome: YoutubeOutcome, seconds: number) => {
  expect(seconds).toBeGreaterThanOrEqual(0);
  seen.push(`${call}:${outcome}`);
};
const source = createInnertubeTranscriptSource({ baseUrl: youtube.origin, clients, timeoutMs: 300, observe });
const en = { languages: ["en"] as const, translate: true };

afterAll(() => youtube.close());
beforeEach(() => {
  youtube.reset();
  seen = [];
});

describe("YouTube calls told to the observer", () => {
  test("a transcript read is one player call and one caption call, both ok", async () => {
    await source.fetch(VIDEOS.normal.id, en);
    expect(seen).toEqual(["player:ok", "caption:ok"]);
  });

  test("an unavailable video is a player call that ended unavailable, though YouTube answered 200", async () => {
    await expect(source.fetch(VIDEOS.unavailable.id, en)).rejects.toThrow();
    expect(seen).toEqual(["player:unavailable"]);
  });

  test("HTTP 429 is blocked; an unreadable answer from every client then a reCAPTCHA watch page is blocked once", async () => {
    youtube.setFault("player", { kind: "status", status: 429 });
    await expect(source.fetch(VIDEOS.normal.id, en)).rejects.toThrow();
    expect(seen).toEqual(["player:blocked"]);
    youtube.reset();
    seen = [];
    youtube.setPlayerGate({ garbleKeyless: true });
    youtube.setWatch("recaptcha");
    await expect(source.fetch(VIDEOS.normal.id, en)).rejects.toThrow();
    expect(seen).toEqual(["player:error", "player:error", "watch_page:blocked"]);
  });

  test("a caption track that never comes is a timeout; an HTTP 500 is an error", async () => {
    youtube.setFault("caption", { kind: "hang" });
    await expect(source.fetch(VIDEOS.normal.id, en)).rejects.toThrow();
    expect(seen).toEqual(["player:ok", "caption:timeout"]);
    youtube.reset();
    seen = [];
    youtube.setFault("player", { kind: "status", status: 500 });
    await expect(source.fetch(VIDEOS.normal.id, en)).rejects.toThrow();
    expect(seen).toEqual(["player:error"]);
  });

  test("observeCall() passes the value and the error through unchanged, timed by the given clock", async () => {
    let ms = 0;
    const calls: [string, string, number][] = [];
    const value = await observeCall(
      (call, outcome, seconds) => calls.push([call, outcome, seconds]),
      "caption",
      async () => ((ms += 250), 42),
      () => ms,
    );
    expect(value).toBe(42);
    const failure = new AppError("video_age_restricted", "x");
    await expect(observeCall((call, outcome, seconds) => calls.push([call, outcome, seconds]), "player", async () => {
      throw failure;
    })).rejects.toBe(failure);
    expect(calls[0]).toEqual(["caption", "ok", 0.25]);
    expect(calls[1]!.slice(0, 2)).toEqual(["player", "unavailable"]);
    expect(youtubeOutcome(new TypeError("bug"))).toBe("error");
  });
});
