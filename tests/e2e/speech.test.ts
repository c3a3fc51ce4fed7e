/** @module End-to-end tests of speech-to-text for caption-less videos (STT=groq) on every runtime. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { VIDEOS } from "../support/fixtures.ts";
import { requestLogLines } from "../support/request-log-lines.ts";
import { postChat, targetFromEnv } from "../support/service/process.ts";
import { readEvents } from "../support/sse.ts";
import { SPEECH_VIDEOS } from "../support/fake/youtube-audio.ts";
import { KEY, type SpeechRig, startSpeechRig } from "../support/service/speech.ts";
import { ask } from "../support/service/youtube.ts";

let rig: SpeechRig;
beforeAll(async () => {
  rig = await startSpeechRig();
});
afterAll(async () => {
  await rig?.close();
});

const chat = (videoId: string, prompt?: string, headers: Record<string, string> = {}) =>
  postChat(rig.service.url, { url: `https://www.youtube.com/watch?v=${videoId}`, ...(prompt ? { prompt } : {}) }, {
    "x-api-key": KEY,
    ...headers,
  });

describe(`speech-to-text for videos without captions (${targetFromEnv()})`, () => {
  test("a caption-less video is answered from its speech: 60 s cut into 3+ pieces that each decode, whose lengths add up", async () => {
    // Two questions at once share one transcription.
    const [response, other] = await Promise.all([
      chat(SPEECH_VIDEOS.webm, "What is the talk about?"),
      chat(SPEECH_VIDEOS.webm, "Is the Nile mentioned?"),
    ]);
    expect([response.status, other.status]).toEqual([200, 200]);
    const uploads = rig.stt.uploads;
    expect(uploads.length).toBeGreaterThanOrEqual(3);
    for (const upload of uploads) {
      expect(upload.fileName).toBe("audio.webm");
      expect(upload.durationSeconds).toBeGreaterThan(1);
      expect(upload.bytes.byteLength).toBeLessThanOrEqual(30_000);
    }
    expect(Math.abs(uploads.reduce((sum, u) => sum + u.durationSeconds!, 0) - 58.6)).toBeLessThan(0.5);
    // The model read whisper's segments, with timestamps on the whole audio's clock (the last piece's past 0:30).
    const prompt = rig.llm.calls.at(-1)!.text;
    expect(prompt).toContain("Rivers carry water, upload");
    expect(prompt).toMatch(/0:[3-5]\d/);
    expect(response.headers.get("server-timing")).toMatch(/\bstt;dur=\d/);
    const [line] = await requestLogLines(rig.service, response);
    expect(line).toMatchObject({ status: 200, transcript_source: "speech", stt_uploads: uploads.length });
    expect(line!.audio_seconds as number).toBeCloseTo(58.6, 0);
    // Audio fetched in ranges, from the address the player call came from.
    const audio = rig.youtube.seen.filter((s) => s.endpoint === "audio");
    expect(audio.length).toBeGreaterThan(0);
    expect(audio.every((s) => s.status === 206 && s.range !== undefined)).toBe(true);
  });

  test("a second question about the same video costs no upload and no audio download", async () => {
    const before = { uploads: rig.stt.uploads.length, audio: rig.youtube.count("audio") };
    const response = await chat(SPEECH_VIDEOS.webm, "Which rivers are named?");
    expect(response.status).toBe(200);
    // In another language too: a speech transcript is the same whatever the language asked.
    expect((await ask(rig.service, SPEECH_VIDEOS.webm, { prompt: "¿De qué ríos habla?", language: "es" })).status).toBe(
      200,
    );
    expect(rig.stt.uploads.length).toBe(before.uploads);
    expect(rig.youtube.count("audio")).toBe(before.audio);
  });

  test("a video with captions is read from its captions and never touches its audio", async () => {
    rig.youtube.reset();
    const uploads = rig.stt.uploads.length;
    const response = await chat(VIDEOS.normal.id, "What is reviewed?");
    expect(response.status).toBe(200);
    expect(rig.youtube.count("caption")).toBe(1);
    expect(rig.youtube.count("audio")).toBe(0);
    expect(rig.stt.uploads.length).toBe(uploads);
    const [line] = await requestLogLines(rig.service, response);
    expect(line).toMatchObject({ transcript_source: "captions" });
  });

  test("an M4A-only video is transcribed from M4A pieces; a streamed answer reports the transcription's progress", async () => {
    rig.stt.reset();
    const response = await chat(SPEECH_VIDEOS.m4a, "Summarise the talk.", { accept: "text/event-stream" });
    expect(response.status).toBe(200);
    const events = await readEvents(response);
    expect(events.at(-1)!.event).toBe("done");
    const uploads = rig.stt.uploads;
    expect(uploads.length).toBeGreaterThanOrEqual(1);
    expect(uploads.every((u) => u.fileName === "audio.m4a" && u.durationSeconds !== undefined)).toBe(true);
    const progress = events.filter((e) => e.event === "progress").map((e) => e.data);
    expect(progress[0]).toEqual({ stage: "transcript" });
    expect(progress).toContainEqual({ stage: "transcribing", done: 0, total: uploads.length });
    expect(progress).toContainEqual({ stage: "transcribing", done: uploads.length, total: uploads.length });
  });

  test("a video longer than STT_MAX_MINUTES is refused with 422 naming the limit, before any download", async () => {
    rig.youtube.reset();
    const outcome = await ask(rig.service, SPEECH_VIDEOS.long);
    expect(outcome.status).toBe(422);
    expect(outcome.code).toBe("transcript_unavailable");
    expect(outcome.message).toContain("120 minutes");
    expect(rig.youtube.count("audio")).toBe(0);
  });

  test("a 403 on the audio is 422 transcript_unavailable: no captions and the audio could not be read", async () => {
    const outcome = await ask(rig.service, SPEECH_VIDEOS.forbidden);
    expect(outcome.status).toBe(422);
    expect(outcome.code).toBe("transcript_unavailable");
    expect(outcome.message).toMatch(/no captions and its audio could not be read/);
  });

  test("the audio URL comes from VISIONOS first: ANDROID's own (which needs a PoToken) is never downloaded", async () => {
    rig.youtube.reset();
    const outcome = await ask(rig.service, SPEECH_VIDEOS.spare);
    expect(outcome.status).toBe(200);
    const audio = rig.youtube.seen.filter((s) => s.endpoint === "audio");
    expect(audio.length).toBeGreaterThan(0);
    expect(audio.every((s) => s.client === "VISIONOS" && s.status === 206)).toBe(true);
  });

  test("a video whose primary client gets no direct audio URL is read through the audio client on the same route", async () => {
    rig.youtube.reset();
    const outcome = await ask(rig.service, SPEECH_VIDEOS.noUrl);
    expect(outcome.status).toBe(200);
    expect(rig.youtube.seen.filter((s) => s.endpoint === "player").map((s) => s.client)).toContain("VISIONOS");
  });

  test("a video without any audio-only format is 422; the provider's 429 is 503 upstream_blocked with its Retry-After", async () => {
    const none = await ask(rig.service, SPEECH_VIDEOS.noAudio);
    expect([none.status, none.code]).toEqual([422, "transcript_unavailable"]);
    expect(none.message).toMatch(/no captions and its audio could not be read/);
    rig.stt.respondWith(() => ({
      status: 429,
      body: { error: { message: "Rate limit reached on requests per minute (RPM): Limit 20, Used 20, Requested 1." } },
      headers: { "retry-after": "42" },
    }));
    try {
      const limited = await ask(rig.service, SPEECH_VIDEOS.fresh);
      expect([limited.status, limited.code, limited.retryAfter]).toEqual([503, "upstream_blocked", "42"]);
    } finally {
      rig.stt.respondWith(undefined);
    }
  });
});
