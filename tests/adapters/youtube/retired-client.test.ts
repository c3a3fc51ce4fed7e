/** @module Tests of retired-client errors: their signs in YouTube's words, their messages, their check. */
import { describe, expect, test } from "bun:test";
import {
  everyClientRetired,
  isRetired,
  retiredClient,
  retiredDetail,
  speaksOfRetirement,
} from "../../../src/adapters/youtube/retired-client.ts";
import { unreadable } from "../../../src/adapters/youtube/unreadable.ts";
import { AppError } from "../../../src/domain/errors.ts";

describe("retired clients", () => {
  test.each([
    "YouTube is no longer supported in this application or device.",
    "Watch on the latest version of YouTube.",
    "This video can only be played on newer versions of Android or other supported devices.",
    "Please update the YouTube app",
  ])("%j speaks of retirement", (text) => {
    expect(speaksOfRetirement(text)).toBe(true);
  });

  test.each(["This video is unavailable", "Sign in to confirm you’re not a bot", "Video unavailable", ""])(
    "%j does not",
    (text) => {
      expect(speaksOfRetirement(text)).toBe(false);
    },
  );

  test("one client's refusal names it, keeps YouTube's words for logs only, and is recognised", () => {
    const error = retiredClient({ name: "ANDROID", version: "20.10.38" }, "HTTP 400 on the player call");
    expect([error.code, error.message]).toEqual([
      "upstream_error",
      "YouTube no longer accepts the ANDROID 20.10.38 client; try again later",
    ]);
    expect(isRetired(error)).toBe(true);
    expect(retiredDetail(error)).toBe("HTTP 400 on the player call");
  });

  test("every client retired is a 502 naming each version and YOUTUBE_CLIENTS, for the operator", () => {
    const error = everyClientRetired([{ name: "ANDROID", version: "20.10.38" }, { name: "IOS", version: "20.10.4" }]);
    expect(error.code).toBe("upstream_error");
    expect(error.message).toContain("(ANDROID 20.10.38, IOS 20.10.4)");
    expect(error.message).toContain("YOUTUBE_CLIENTS");
    expect(isRetired(error)).toBe(true);
  });

  test("other upstream errors, unreadable answers included, are not retired clients", () => {
    expect(isRetired(new AppError("upstream_error", "YouTube answered with HTTP 500"))).toBe(false);
    expect(isRetired(unreadable("a player response", "not JSON"))).toBe(false);
    expect(retiredDetail(new Error("x"))).toBe("");
  });
});
