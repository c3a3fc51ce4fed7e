/** @module End-to-end test of YOUTUBE_AUDIO_CLIENTS in order: one client's audio refused with 403, the next's served. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SPEECH_VIDEOS } from "../support/fake/youtube-audio.ts";
import { targetFromEnv } from "../support/service/process.ts";
import { type SpeechRig, startSpeechRig } from "../support/service/speech.ts";
import { ask } from "../support/service/youtube.ts";

let rig: SpeechRig;
beforeAll(async () => {
  // ANDROID first: its audio needs a PoToken (403 without, as the fake answers); VISIONOS's does not.
  rig = await startSpeechRig({ YOUTUBE_AUDIO_CLIENTS: "ANDROID:21.26.364,VISIONOS:1.02" });
});
afterAll(async () => {
  await rig?.close();
});

describe(`audio clients in order (${targetFromEnv()})`, () => {
  test("ANDROID's audio answers 403, VISIONOS's is served: 200 from speech, not 422", async () => {
    const outcome = await ask(rig.service, SPEECH_VIDEOS.webm);
    expect(outcome.status).toBe(200);
    const audio = rig.youtube.seen.filter((s) => s.endpoint === "audio");
    expect(audio[0]).toMatchObject({ client: "ANDROID", status: 403 });
    expect(audio.length).toBeGreaterThan(1);
    expect(audio.slice(1).every((s) => s.client === "VISIONOS" && s.status === 206)).toBe(true);
    expect(rig.stt.uploads.length).toBeGreaterThan(0);
  });

  test("every client's audio refused with 403: 422 transcript_unavailable, after each was tried", async () => {
    rig.youtube.reset();
    const outcome = await ask(rig.service, SPEECH_VIDEOS.forbidden);
    expect([outcome.status, outcome.code]).toEqual([422, "transcript_unavailable"]);
    const tried = rig.youtube.seen.filter((s) => s.endpoint === "audio").map((s) => `${s.client}:${s.status}`);
    // ANDROID and VISIONOS as audio clients, then the primary client's own URL (ANDROID again).
    expect(tried).toEqual(["ANDROID:403", "VISIONOS:403", "ANDROID:403"]);
  });
});
