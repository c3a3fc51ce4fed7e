/** @module End-to-end tests of YouTube's newer refusals: captcha, rate limits, another video, age checks, xpv gates. */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { VIDEOS } from "../support/fixtures.ts";
import { parseSamples, sampleKey } from "../support/prometheus-text.ts";
import { adminUrlOf, targetFromEnv } from "../support/service/process.ts";
import { ask, startYoutubeRig, type YoutubeRig } from "../support/service/youtube.ts";

let rig: YoutubeRig;
let admin: string;

beforeAll(async () => {
  rig = await startYoutubeRig({ ADMIN_PORT: "0" });
  admin = await adminUrlOf(rig.service);
});
afterAll(() => rig?.close());
beforeEach(() => {
  rig.youtube.reset();
  rig.llm.reset();
});

const blockedTries = async () =>
  parseSamples(await (await fetch(`${admin}/metrics`)).text()).get(
    sampleKey("vcs_youtube_route_requests_total", { route: "direct", outcome: "blocked" }),
  ) ?? 0;

describe(`YouTube's newer refusals through POST /chat (${targetFromEnv()})`, () => {
  test.each(
    [
      ["a captcha in the player answer (playerCaptchaViewModel)", VIDEOS.captcha.id, "60"],
      ['"This content isn\'t available, try again later"', VIDEOS.tryAgainLater.id, "3600"],
      ["an answer about another video than the one asked", VIDEOS.otherVideo.id, "60"],
    ] as const,
  )("%s is a block of the route: 503 upstream_blocked, counted on the route", async (_, videoId, retryAfter) => {
    const before = await blockedTries();
    const outcome = await ask(rig.service, videoId);
    expect([outcome.status, outcome.code, outcome.retryAfter]).toEqual([503, "upstream_blocked", retryAfter]);
    // A block ends the try at once: no other client, no watch page.
    expect(rig.youtube.seen.map((s) => s.endpoint)).toEqual(["player"]);
    expect(await blockedTries()).toBe(before + 1);
    expect(rig.llm.calls).toHaveLength(0);
  });

  test("AGE_VERIFICATION_REQUIRED is 422 video_age_restricted after one player call", async () => {
    const outcome = await ask(rig.service, VIDEOS.ageVerification.id);
    expect([outcome.status, outcome.code]).toEqual([422, "video_age_restricted"]);
    expect(rig.youtube.seen.map((s) => s.endpoint)).toEqual(["player"]);
  });

  test("a caption URL gated with exp=xpv for every client is 502 upstream_error asking for a token, never fetched", async () => {
    const outcome = await ask(rig.service, VIDEOS.xpvGated.id);
    expect([outcome.status, outcome.code]).toEqual([502, "upstream_error"]);
    expect(outcome.message).toContain("proof-of-origin token");
    expect(rig.youtube.seen.map((s) => `${s.endpoint}:${s.client}`)).toEqual(["player:ANDROID", "player:IOS"]);
  });

  test("a caption URL gated with exp=xpv for ANDROID and not for IOS is read through IOS: 200", async () => {
    rig.youtube.setPlayerGate({
      tracks: (client, tracks) =>
        client === "IOS" ? tracks.map((t) => ({ ...t, baseUrl: t.baseUrl.replace("&exp=xpv", "") })) : tracks,
    });
    const outcome = await ask(rig.service, VIDEOS.xpvGated.id);
    expect(outcome.status).toBe(200);
    const captions = rig.youtube.seen.filter((s) => s.endpoint === "caption");
    expect(captions.map((s) => s.query.exp)).toEqual([undefined]);
  });

  test("several exp values, one of them xpe: gated as well", async () => {
    rig.youtube.setPlayerGate({
      tracks: (_client, tracks) => tracks.map((t) => ({ ...t, baseUrl: `${t.baseUrl}&exp=xftt,xpe` })),
    });
    const outcome = await ask(rig.service, VIDEOS.normal.id);
    expect([outcome.status, outcome.code]).toEqual([502, "upstream_error"]);
    expect(rig.youtube.count("caption")).toBe(0);
  });
});
