/** @module End-to-end tests of speech-to-text over YOUTUBE_PROXIES: the audio rides its try's route. */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { type FakeProxy, startFixedProxy } from "../support/fake/proxy.ts";
import { SPEECH_VIDEOS } from "../support/fake/youtube-audio.ts";
import { targetFromEnv } from "../support/service/process.ts";
import { type SpeechRig, startSpeechRig } from "../support/service/speech.ts";
import { ask } from "../support/service/youtube.ts";

const ADDRESSES = ["127.0.0.3", "127.0.0.4"];
let proxies: FakeProxy[] = [];
let rig: SpeechRig;
beforeAll(async () => {
  proxies = await Promise.all(ADDRESSES.map((address) => startFixedProxy(address)));
  rig = await startSpeechRig({ YOUTUBE_PROXIES: proxies.map((p) => p.url).join(","), YOUTUBE_BLOCK_RETRIES: "3" });
});
afterEach(() => {
  rig.youtube.reset();
  rig.stt.reset();
});
afterAll(async () => {
  await rig?.close();
  await Promise.all(proxies.map((p) => p.close()));
});

/** @returns the fake's requests for one video */
function seenFor(videoId: string, endpoint: "player" | "audio") {
  return rig.youtube.seen.filter((s) => s.endpoint === endpoint && s.videoId === videoId);
}

describe(`speech-to-text over YOUTUBE_PROXIES (${targetFromEnv()})`, () => {
  test("the audio leaves by the route of its try's player call: one proxy's address for both", async () => {
    const outcome = await ask(rig.service, SPEECH_VIDEOS.webm);
    expect(outcome.status).toBe(200);
    const player = seenFor(SPEECH_VIDEOS.webm, "player");
    const audio = seenFor(SPEECH_VIDEOS.webm, "audio");
    // The primary client's call and the audio client's (VISIONOS), from one address.
    expect(player.map((s) => s.client)).toEqual(["ANDROID", "VISIONOS"]);
    expect(ADDRESSES).toContain(player[0]!.ip);
    expect(player[1]!.ip).toBe(player[0]!.ip);
    expect(audio.length).toBeGreaterThan(0);
    expect(audio.every((s) => s.ip === player[0]!.ip && s.status === 206)).toBe(true);
  });

  test("a 429 on the audio is a block of the route: the fetch moves to the other route, whose player call and audio share its address", async () => {
    rig.youtube.blockAudio([ADDRESSES[0]!]);
    // Two videos: routes are taken in turn, so at least one of them starts on the blocked route.
    for (const videoId of [SPEECH_VIDEOS.fresh, SPEECH_VIDEOS.m4a]) {
      const outcome = await ask(rig.service, videoId);
      expect(outcome.status).toBe(200);
      const served = seenFor(videoId, "audio").filter((s) => s.status === 206);
      expect(served.length).toBeGreaterThan(0);
      expect(served.every((s) => s.ip === ADDRESSES[1])).toBe(true);
      const players = seenFor(videoId, "player").map((s) => s.ip);
      expect(players.at(-1)).toBe(ADDRESSES[1]!);
    }
    const refused = rig.youtube.seen.filter((s) => s.endpoint === "audio" && s.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.every((s) => s.ip === ADDRESSES[0])).toBe(true);
  });

  test("a 429 on the audio of every route is 503 upstream_blocked after trying both routes", async () => {
    rig.youtube.blockAudio(ADDRESSES);
    const outcome = await ask(rig.service, SPEECH_VIDEOS.noUrl);
    expect(outcome.status).toBe(503);
    expect(outcome.code).toBe("upstream_blocked");
    expect(new Set(seenFor(SPEECH_VIDEOS.noUrl, "player").map((s) => s.ip))).toEqual(new Set(ADDRESSES));
    expect(rig.stt.uploads.length).toBe(0);
  });

  // Last: the fake provider's 429 teaches the speech budget to wait.
  test("the speech service's 429 is 503 upstream_blocked with no other route tried: one try's calls, one download", async () => {
    rig.stt.respondWith(() => ({
      status: 429,
      body: {
        error: {
          message:
            "Rate limit reached for model `whisper-large-v3-turbo` on requests per minute (RPM): Limit 20, Used 20, Requested 1. Please try again in 1s.",
        },
      },
      headers: { "retry-after": "1" },
    }));
    const outcome = await ask(rig.service, SPEECH_VIDEOS.spare);
    expect(outcome.status).toBe(503);
    expect(outcome.code).toBe("upstream_blocked");
    expect(outcome.message).toContain("speech-to-text");
    // One try: the primary client's player call and the audio client's, both from one address.
    expect(seenFor(SPEECH_VIDEOS.spare, "player").map((s) => s.client)).toEqual(["ANDROID", "VISIONOS"]);
    expect(new Set(seenFor(SPEECH_VIDEOS.spare, "player").map((s) => s.ip)).size).toBe(1);
    expect(new Set(seenFor(SPEECH_VIDEOS.spare, "audio").map((s) => s.ip)).size).toBe(1);
  });
});
