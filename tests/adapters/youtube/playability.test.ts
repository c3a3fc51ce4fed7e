/** @module Tests of reading playability: blocks, a retired client, age checks, and what is the video's own refusal. */
import { describe, expect, test } from "bun:test";
import { answeredVideoId, assertPlayable } from "../../../src/adapters/youtube/playability.ts";
import { isRetired } from "../../../src/adapters/youtube/retired-client.ts";
import { isUnreadable } from "../../../src/adapters/youtube/unreadable.ts";
import { AppError } from "../../../src/domain/errors.ts";
import { fixture, VIDEOS } from "../../support/fixtures.ts";

/** @returns what reading `answer` for `videoId` throws */
function refusal(answer: Record<string, unknown>, videoId = "abcdefghijk"): AppError {
  try {
    assertPlayable(answer, videoId);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("read as playable");
}
const own = (name: string) => JSON.parse(fixture(name)) as Record<string, unknown>;
const status = (playabilityStatus: unknown, more: Record<string, unknown> = {}) => ({ playabilityStatus, ...more });

describe("assertPlayable()", () => {
  test("a captcha view model in the error screen is a block, whatever the reason says", () => {
    const error = refusal(own("player_captcha.innertube.json"));
    expect([error.code, error.retryAfterSeconds]).toEqual(["upstream_blocked", 60]);
    expect(error.message).toContain("captcha");
  });

  test("'try again later' is a block of an hour (yt-dlp: the session is rate-limited for up to one)", () => {
    const error = refusal(own("player_try_again_later.innertube.json"));
    expect([error.code, error.retryAfterSeconds]).toEqual(["upstream_blocked", 3600]);
    // The typographic apostrophe reads the same.
    const curly = refusal(status({ status: "UNPLAYABLE", reason: "This content isn’t available, try again later." }));
    expect(curly.code).toBe("upstream_blocked");
  });

  test("an answer about another video than the one asked is a block ('your IP is likely being blocked')", () => {
    const normal = JSON.parse(fixture(VIDEOS.normal.player));
    const error = refusal(normal, "otherVideo1");
    expect(error.code).toBe("upstream_blocked");
    expect(error.message).toContain("another video than otherVideo1");
    expect(() => assertPlayable(normal, VIDEOS.normal.id)).not.toThrow();
  });

  test.each(["AGE_VERIFICATION_REQUIRED", "AGE_CHECK_REQUIRED"])("%s is video_age_restricted", (state) => {
    expect(refusal(status({ status: state }, { videoDetails: { videoId: "abcdefghijk" } })).code).toBe(
      "video_age_restricted",
    );
  });

  test("the written AGE_VERIFICATION_REQUIRED answer is video_age_restricted", () => {
    expect(refusal(own("player_age_verification.innertube.json"), VIDEOS.ageVerification.id).code).toBe(
      "video_age_restricted",
    );
  });

  test.each([
    ["the ERROR 'no longer supported' answer", "player_client_unsupported.innertube.json"],
    [
      "the ERROR whose sub-reason asks for the latest version (its reason says unavailable)",
      "player_latest_version.innertube.json",
    ],
  ])("%s is a retired client, not video_unavailable", (_, file) => {
    const error = refusal(own(file));
    expect(isRetired(error)).toBe(true);
    expect(error.code).toBe("upstream_error");
  });

  test("an UNPLAYABLE asking for newer versions of the app is a retired client too", () => {
    const answer = status({
      status: "UNPLAYABLE",
      reason: "This video can only be played on newer versions of Android or other supported devices.",
    });
    expect(isRetired(refusal(answer))).toBe(true);
  });

  test("an OK answer that names no video is a retired client; an OK about the video asked is playable", () => {
    expect(isRetired(refusal(status({ status: "OK" })))).toBe(true);
    expect(() => assertPlayable(status({ status: "OK" }, { videoDetails: { videoId: "abcdefghijk" } }), "abcdefghijk"))
      .not.toThrow();
  });

  test("the captured refusals keep their meaning", () => {
    expect(refusal(JSON.parse(fixture(VIDEOS.unavailable.player))).code).toBe("video_unavailable");
    expect(refusal(JSON.parse(fixture(VIDEOS.botCheck.player))).code).toBe("upstream_blocked");
    expect(refusal(JSON.parse(fixture(VIDEOS.ageRestricted.player)), VIDEOS.ageRestricted.id).code).toBe(
      "video_age_restricted",
    );
    expect(refusal(JSON.parse(fixture(VIDEOS.unplayable.player))).code).toBe("video_unplayable");
  });

  test("no status at all is unreadable, even when the answer names another video", () => {
    expect(isUnreadable(refusal({}))).toBe(true);
    expect(isUnreadable(refusal({ videoDetails: { videoId: "zzzzzzzzzzz" } }))).toBe(true);
  });

  test("answeredVideoId() names the video of an answer, if any", () => {
    expect(answeredVideoId({ videoDetails: { videoId: "abcdefghijk" } })).toBe("abcdefghijk");
    expect(answeredVideoId({ videoDetails: {} })).toBeUndefined();
    expect(answeredVideoId(null)).toBeUndefined();
  });
});
