/** @module Tests of the client table: today's versions, what each client sends, and version comparison. */
import { describe, expect, test } from "bun:test";
import {
  BROWSER_USER_AGENT,
  clientContext,
  clientHeaders,
  compareVersions,
  currentVersion,
  DEFAULT_AUDIO_CLIENT_NAMES,
  DEFAULT_CLIENT_NAMES,
  innertubeClient,
} from "../../../src/adapters/youtube/innertube-clients.ts";

/** The versions issue 30 names (yt-dlp's 2026-08 snapshot): the table may only move forward from them. */
const AT_LEAST: Record<string, string> = { ANDROID: "21.26.364", IOS: "21.26.4", VISIONOS: "1.02" };

describe("the client table", () => {
  test("defaults to ANDROID then IOS for captions and VISIONOS for audio", () => {
    expect([...DEFAULT_CLIENT_NAMES]).toEqual(["ANDROID", "IOS"]);
    expect([...DEFAULT_AUDIO_CLIENT_NAMES]).toEqual(["VISIONOS"]);
  });

  test.each(Object.entries(AT_LEAST))("%s is at %s or newer", (name, version) => {
    expect(compareVersions(currentVersion(name)!, version)).toBeGreaterThanOrEqual(0);
  });

  test("ANDROID is sent as the app: id 3, its user agent with its version, Android 11 fields", () => {
    const android = innertubeClient("ANDROID", "21.26.364");
    expect(clientHeaders(android)).toEqual({
      "user-agent": "com.google.android.youtube/21.26.364 (Linux; U; Android 11) gzip",
      "x-youtube-client-name": "3",
      "x-youtube-client-version": "21.26.364",
    });
    expect(clientContext(android)).toEqual({
      clientName: "ANDROID",
      clientVersion: "21.26.364",
      userAgent: "com.google.android.youtube/21.26.364 (Linux; U; Android 11) gzip",
      androidSdkVersion: 30,
      osName: "Android",
      osVersion: "11",
      hl: "en",
      gl: "US",
      timeZone: "UTC",
      utcOffsetMinutes: 0,
    });
  });

  test("IOS and VISIONOS carry their device; a configured version goes into the user agent that names one", () => {
    const ios = innertubeClient("IOS", "21.30.1");
    expect(ios.userAgent).toBe("com.google.ios.youtube/21.30.1 (iPhone16,2; U; CPU iOS 18_3_2 like Mac OS X;)");
    expect(clientContext(ios)).toMatchObject({ deviceMake: "Apple", deviceModel: "iPhone16,2", osName: "iPhone" });
    expect(clientHeaders(ios)["x-youtube-client-name"]).toBe("5");
    const visionos = innertubeClient("VISIONOS", "1.02");
    expect(clientHeaders(visionos)).toMatchObject({ "x-youtube-client-name": "101" });
    expect(visionos.userAgent).toContain("Safari/605.1.15");
    expect(clientContext(visionos)).toMatchObject({ deviceModel: "RealityDevice17,1", osName: "visionOS" });
  });

  test("a name the table does not know is sent with its name and version only, as a browser", () => {
    const tv = innertubeClient("TVHTML5", "7.2");
    expect(tv).toEqual({ name: "TVHTML5", version: "7.2" });
    expect(clientHeaders(tv)).toEqual({ "user-agent": BROWSER_USER_AGENT });
    expect(clientContext(tv)).toMatchObject({ clientName: "TVHTML5", clientVersion: "7.2" });
    expect(clientContext(tv)).not.toHaveProperty("userAgent");
  });

  test("the browser's user agent is a current Chrome's, not the runtime's", () => {
    expect(BROWSER_USER_AGENT).toMatch(/^Mozilla\/5\.0 \(Windows NT 10\.0; Win64; x64\) .* Chrome\/1[4-9]\d\.0\.0\.0 /);
  });
});

describe("compareVersions()", () => {
  test("compares part by part as numbers, a missing part as 0", () => {
    expect(compareVersions("21.26.364", "21.26.4")).toBeGreaterThan(0);
    expect(compareVersions("20.10.38", "21")).toBeLessThan(0);
    expect(compareVersions("21.0", "21")).toBe(0);
    expect(compareVersions("1.10", "1.9")).toBeGreaterThan(0);
  });
});
