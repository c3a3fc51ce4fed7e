/** @module Tests of reading the watch page: API key, initial player response, reCAPTCHA and consent wall. */
// deno-lint-ignore-file no-explicit-any -- reads JSON whose shape is checked field by field where it is used
import { describe, expect, test } from "bun:test";
import { classifyPage, readWatchPage } from "../../../src/adapters/youtube/watch-page.ts";
import { playerVideoId } from "../../../src/adapters/youtube/player-response.ts";
import { fixture } from "../../support/fixtures.ts";

describe("watch page reading", () => {
  test("the real watch page gives the API key and the initial player response of its video", () => {
    const html = fixture("youtube.html");
    expect(classifyPage(html)).toEqual({ kind: "watch" });
    const page = readWatchPage(html);
    expect(page.apiKey).toBe("AIzaSyAO_FJ2SlqU8Q4STEHLGCilw_Y9_11qcW8");
    expect(playerVideoId(page.playerResponse)).toBe("GJLlxj_dtq8");
    expect((page.playerResponse as any).videoDetails.lengthSeconds).toBe("316");
  });

  test("the reCAPTCHA page is recognised and has no key", () => {
    const html = fixture("youtube_too_many_requests.html");
    expect(classifyPage(html)).toEqual({ kind: "recaptcha" });
    expect(readWatchPage(html).apiKey).toBeUndefined();
  });

  test("the consent wall gives the value its form would set as cookie", () => {
    expect(classifyPage(fixture("youtube_consent_page.html"))).toEqual({
      kind: "consent",
      value: "cb.20210328-17-p0.de+FX+119",
    });
  });

  test("the consent wall without its v input is recognised, with no value", () => {
    expect(classifyPage(fixture("youtube_consent_page_invalid.html"))).toEqual({ kind: "consent", value: undefined });
  });

  test("braces inside strings do not end the initial player response early", () => {
    const html =
      `<script>var ytInitialPlayerResponse = {"a":"}{\\"}","videoDetails":{"videoId":"abcdefghijk"}};var x = 1;</script>`;
    expect(playerVideoId(readWatchPage(html).playerResponse)).toBe("abcdefghijk");
  });
});
