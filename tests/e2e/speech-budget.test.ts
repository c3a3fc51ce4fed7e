/** @module End-to-end test of the speech budget shared in Redis: refused at once before any download. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { testRedisUrl, uniquePrefix } from "../support/redis-server.ts";
import { SPEECH_VIDEOS } from "../support/fake/youtube-audio.ts";
import { type RunningService, startService, targetFromEnv } from "../support/service/process.ts";
import { type SpeechRig, startSpeechRig } from "../support/service/speech.ts";
import { ask } from "../support/service/youtube.ts";

// 100 audio seconds an hour, one budget in Redis for both instances: the first 59 s video fits, the second does not.
const budgetEnv = () => ({
  REDIS_URL: testRedisUrl(),
  REDIS_KEY_PREFIX: uniquePrefix("stt-budget"),
  STT_AUDIO_SECONDS_PER_HOUR: "100",
});
let rig: SpeechRig;
let other: RunningService;
beforeAll(async () => {
  const env = budgetEnv();
  rig = await startSpeechRig(env);
  other = await startService(rig.env);
});
afterAll(async () => {
  await other?.stop();
  await rig?.close();
});

describe(`speech-to-text budget, shared in Redis (${targetFromEnv()})`, () => {
  test("audio seconds one instance used are gone for the other: a video that cannot be transcribed before its deadline is 503 overloaded at once, with Retry-After, before any download", async () => {
    expect((await ask(rig.service, SPEECH_VIDEOS.webm)).status).toBe(200);
    const audio = rig.youtube.count("audio");
    const uploads = rig.stt.uploads.length;
    const outcome = await ask(other, SPEECH_VIDEOS.m4a);
    expect(outcome.status).toBe(503);
    expect(outcome.code).toBe("overloaded");
    expect(Number(outcome.retryAfter)).toBeGreaterThan(60);
    expect(outcome.ms).toBeLessThan(5_000);
    expect(rig.youtube.count("audio")).toBe(audio);
    expect(rig.stt.uploads.length).toBe(uploads);
  });
});
