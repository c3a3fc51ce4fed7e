/** @module Tests of speech-reader.ts: format choice, download, pieces and transcription into cues, and its refusals. */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { createMemoryBudgetStore } from "../../../src/adapters/llm/budget/budget-store.ts";
import { innertubeClient, innertubeClients } from "../../../src/adapters/youtube/innertube-clients.ts";
import { createGroqTranscriber } from "../../../src/adapters/speech/groq-transcriber.ts";
import { createSpeechBudget } from "../../../src/adapters/speech/speech-budget.ts";
import {
  createSpeechReader,
  isSpeechServiceFailure,
  type SpeechReaderOptions,
} from "../../../src/adapters/speech/speech-reader.ts";
import { readPlayerBody, requestPlayer } from "../../../src/adapters/youtube/player-request.ts";
import { createYoutubeTransport } from "../../../src/adapters/youtube/transport.ts";
import { isAppError } from "../../../src/domain/errors.ts";
import { heardNothing } from "../../../src/domain/transcript.ts";
import { startFakeLlm } from "../../support/fake/llm.ts";
import { startFakeStt } from "../../support/fake/stt.ts";
import { SPEECH_VIDEOS, startFakeYoutubeAudio } from "../../support/fake/youtube-audio.ts";

const youtube = startFakeYoutubeAudio();
const llm = startFakeLlm();
const stt = startFakeStt(llm.baseUrl);
afterEach(() => {
  youtube.reset();
  stt.reset();
});
afterAll(async () => {
  await youtube.close();
  await stt.close();
  await llm.close();
});

const transport = createYoutubeTransport({ baseUrl: youtube.origin, timeoutMs: 5_000 });
const VISIONOS = { name: "VISIONOS", version: "1.02" };
const query = { languages: ["en"], translate: true };

function reader(overrides: Partial<SpeechReaderOptions> = {}, limits = { seconds: 7_200, requests: 20 }) {
  return createSpeechReader({
    transcribe: createGroqTranscriber({
      apiKey: "gsk_test",
      baseUrl: stt.baseUrl,
      model: "whisper-large-v3-turbo",
      timeoutMs: 10_000,
    }),
    budget: createSpeechBudget({
      seconds: createMemoryBudgetStore({
        limits: { tokensPerWindow: limits.seconds, requestsPerWindow: 1e9 },
        windowMs: 3_600_000,
      }),
      requests: createMemoryBudgetStore({
        limits: { tokensPerWindow: limits.requests, requestsPerWindow: limits.requests },
        windowMs: 60_000,
      }),
    }),
    audioClients: innertubeClients([VISIONOS]),
    maxMinutes: 120,
    chunkBytes: 30_000,
    rangeBytes: 16_384,
    ...overrides,
  });
}

/** The player call the InnerTube source would have made (as ANDROID, unless told), on the same transport. */
async function player(videoId: string, client = innertubeClient("ANDROID", "21.26.364")) {
  return readPlayerBody(await requestPlayer(transport, videoId, { client }), videoId);
}

async function refusal(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a refusal");
}

describe("createSpeechReader", () => {
  test("transcribes the lowest-bitrate audio in ranges, cut into 3+ pieces, with segments offset by each piece's start", async () => {
    const videoId = SPEECH_VIDEOS.webm;
    const progress: [number, number][] = [];
    const transcript = await reader().read({
      transport,
      videoId,
      info: await player(videoId),
      query: { ...query, onTranscribing: (done, total) => progress.push([done, total]) },
    });
    const audio = youtube.seen.filter((s) => s.endpoint === "audio");
    expect(audio.length).toBeGreaterThan(1);
    expect(audio.every((s) => s.status === 206 && s.range?.startsWith("bytes="))).toBe(true);
    expect(new Set(audio.map((s) => s.videoId))).toEqual(new Set([videoId]));
    expect(stt.uploads.length).toBeGreaterThanOrEqual(3);
    expect(stt.uploads.map((u) => [u.fileName, u.status, u.granularities])).toEqual(
      stt.uploads.map(() => ["audio.webm", 200, ["segment"]]),
    );
    const total = stt.uploads.reduce((sum, u) => sum + u.durationSeconds!, 0);
    expect(Math.abs(total - 58.6)).toBeLessThan(0.5);
    // Each piece's first segment starts where the piece does on the audio's clock.
    const firsts = transcript.cues.filter((c) => / part 0\.$/.test(c.text)).map((c) => c.start);
    expect(firsts).toHaveLength(stt.uploads.length);
    // In piece order, each piece starts where the pieces before it (as decoded by ffprobe) end.
    let expected = 0;
    for (const cue of transcript.cues.filter((c) => / part 0\.$/.test(c.text))) {
      expect(cue.start).toBeCloseTo(expected, 1);
      expected += stt.uploads[Number(/upload (\d+)/.exec(cue.text)![1])]!.durationSeconds!;
    }
    expect(transcript.cues.at(-1)!.start + transcript.cues.at(-1)!.duration).toBeCloseTo(58.6, 0);
    expect(transcript).toMatchObject({
      videoId,
      language: "en",
      isGenerated: true,
      isTranslated: false,
      durationSeconds: 59,
    });
    expect(transcript.speech).toMatchObject({ uploads: stt.uploads.length });
    expect(transcript.speech!.audioSeconds).toBeCloseTo(58.6, 0);
    expect(progress[0]).toEqual([0, stt.uploads.length]);
    expect(progress.at(-1)).toEqual([stt.uploads.length, stt.uploads.length]);
  });

  test("an M4A-only video is cut into M4A pieces", async () => {
    const transcript = await reader({ chunkBytes: 45_000 }).read({
      transport,
      videoId: SPEECH_VIDEOS.m4a,
      info: await player(SPEECH_VIDEOS.m4a),
      query,
    });
    expect(stt.uploads.length).toBeGreaterThanOrEqual(3);
    expect(stt.uploads.every((u) => u.fileName.endsWith(".m4a") && u.status === 200)).toBe(true);
    expect(youtube.seen.find((s) => s.endpoint === "audio")).toBeDefined();
    expect(transcript.cues.length).toBeGreaterThan(10);
  });

  test("asks the audio clients on the same transport when the primary client offers no direct URL", async () => {
    const transcript = await reader().read({
      transport,
      videoId: SPEECH_VIDEOS.noUrl,
      info: await player(SPEECH_VIDEOS.noUrl),
      query,
    });
    expect(youtube.seen.filter((s) => s.endpoint === "player").map((s) => s.client)).toEqual(["ANDROID", "VISIONOS"]);
    expect(transcript.cues.length).toBeGreaterThan(0);
  });

  test("the audio comes from an audio client first, even when the primary's answer lists a direct URL", async () => {
    const info = await player(SPEECH_VIDEOS.webm);
    expect(info.audioFormats!.some((f) => f.url !== undefined)).toBe(true);
    youtube.reset();
    const transcript = await reader().read({ transport, videoId: SPEECH_VIDEOS.webm, info, query });
    const audio = youtube.seen.filter((s) => s.endpoint === "audio");
    expect(youtube.seen.filter((s) => s.endpoint === "player").map((s) => s.client)).toEqual(["VISIONOS"]);
    expect(audio.length > 0 && audio.every((s) => s.status === 206)).toBe(true);
    expect(transcript.cues.length).toBeGreaterThan(0);
  });

  test("a 403 on one client's audio tries the next client's before answering 422", async () => {
    const info = await player(SPEECH_VIDEOS.webm);
    youtube.reset();
    // ANDROID's audio needs a proof-of-origin token (403 without); VISIONOS's does not.
    const speech = reader({ audioClients: innertubeClients([{ name: "ANDROID", version: "21.26.364" }, VISIONOS]) });
    const transcript = await speech.read({ transport, videoId: SPEECH_VIDEOS.webm, info, query });
    const audio = youtube.seen.filter((s) => s.endpoint === "audio").map((s) => s.status);
    expect(youtube.seen.filter((s) => s.endpoint === "player").map((s) => s.client)).toEqual(["ANDROID", "VISIONOS"]);
    expect(audio[0]).toBe(403);
    expect(audio.slice(1).every((status) => status === 206)).toBe(true);
    expect(transcript.cues.length).toBeGreaterThan(0);
  });

  test("refuses a video longer than STT_MAX_MINUTES with 422 naming the limit, before any download or upload", async () => {
    const error = await refusal(
      reader({ maxMinutes: 120 }).read({
        transport,
        videoId: SPEECH_VIDEOS.long,
        info: await player(SPEECH_VIDEOS.long),
        query,
      }),
    );
    expect(isAppError(error, "transcript_unavailable")).toBe(true);
    expect((error as Error).message).toContain("120 minutes");
    expect(youtube.count("audio")).toBe(0);
    expect(stt.uploads).toHaveLength(0);
  });

  test("a 403 on the audio is 422 transcript_unavailable saying the audio could not be read", async () => {
    const error = await refusal(
      reader().read({
        transport,
        videoId: SPEECH_VIDEOS.forbidden,
        info: await player(SPEECH_VIDEOS.forbidden),
        query,
      }),
    );
    expect(isAppError(error, "transcript_unavailable")).toBe(true);
    expect((error as Error).message).toMatch(/has no captions and its audio could not be read/);
    expect(stt.uploads).toHaveLength(0);
  });

  test("a video without audio-only formats for any client is 422", async () => {
    const error = await refusal(
      reader().read({ transport, videoId: SPEECH_VIDEOS.noAudio, info: await player(SPEECH_VIDEOS.noAudio), query }),
    );
    expect(isAppError(error, "transcript_unavailable")).toBe(true);
    expect(youtube.seen.filter((s) => s.endpoint === "player").map((s) => s.client)).toEqual(["ANDROID", "VISIONOS"]);
  });

  test("audio that does not decode is 422, not a 500", async () => {
    // The primary's own audio (no audio client asked), from a client whose URLs need no token: it is downloaded.
    const info = await player(SPEECH_VIDEOS.webm, innertubeClient("VISIONOS", "1.02"));
    const garbled = {
      ...info,
      audioFormats: info.audioFormats!.map((f) => ({ ...f, url: f.url?.replace(/itag=\d+/, "itag=1") })),
    };
    const speech = reader({ audioClients: [] });
    const error = await refusal(speech.read({ transport, videoId: SPEECH_VIDEOS.webm, info: garbled, query }));
    const statuses = youtube.seen.filter((s) => s.endpoint === "audio").map((s) => s.status);
    expect(statuses.length > 0 && statuses.every((status) => status === 206)).toBe(true);
    expect(isAppError(error, "transcript_unavailable")).toBe(true);
  });

  test("audio seconds that cannot be had before the deadline are refused at once with 503 overloaded and a retry-after", async () => {
    const speech = reader({}, { seconds: 60, requests: 20 });
    const info = await player(SPEECH_VIDEOS.webm);
    await speech.read({ transport, videoId: SPEECH_VIDEOS.webm, info, query });
    youtube.reset();
    stt.reset();
    const started = performance.now();
    const error = await refusal(
      speech.read({ transport, videoId: SPEECH_VIDEOS.webm, info, query: { ...query, deadline: Date.now() + 5_000 } }),
    );
    expect(isAppError(error, "overloaded")).toBe(true);
    expect((error as { retryAfterSeconds?: number }).retryAfterSeconds).toBeGreaterThan(5);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(youtube.count("audio")).toBe(0);
    expect(stt.uploads).toHaveLength(0);
  });

  test("a length the player response understated is paid for before any upload: refused when the budget lacks it", async () => {
    const info = { ...(await player(SPEECH_VIDEOS.webm)), lengthSeconds: 10 };
    const error = await refusal(
      reader({}, { seconds: 30, requests: 20 }).read({
        transport,
        videoId: SPEECH_VIDEOS.webm,
        info,
        query: { ...query, deadline: Date.now() + 5_000 },
      }),
    );
    expect(isAppError(error, "overloaded")).toBe(true);
    expect(youtube.count("audio")).toBeGreaterThan(0);
    expect(stt.uploads).toHaveLength(0);
  });

  test("videos beyond the ones at once wait for a place, or are 503 overloaded when none frees up before their deadline", async () => {
    const speech = reader({ videosAtOnce: 1 });
    const info = await player(SPEECH_VIDEOS.webm);
    const [first, second] = await Promise.all([
      speech.read({ transport, videoId: SPEECH_VIDEOS.webm, info, query }),
      refusal(
        speech.read({ transport, videoId: SPEECH_VIDEOS.webm, info, query: { ...query, deadline: Date.now() + 50 } }),
      ),
    ]);
    expect(first.cues.length).toBeGreaterThan(0);
    expect(isAppError(second, "overloaded")).toBe(true);
  });

  test("audio that holds no speech gives a transcript without cues, with its speech facts (heardNothing)", async () => {
    stt.respondWith((upload) => ({
      status: 200,
      body: { task: "transcribe", language: "English", duration: upload.durationSeconds, text: "", segments: [] },
    }));
    const heard: number[] = [];
    const transcript = await reader().read({
      transport,
      videoId: SPEECH_VIDEOS.webm,
      info: await player(SPEECH_VIDEOS.webm),
      query: { ...query, onAudioTranscribed: (seconds) => heard.push(seconds) },
    });
    expect(transcript.cues).toEqual([]);
    expect(heardNothing(transcript)).toBe(true);
    expect(transcript.speech!.uploads).toBeGreaterThanOrEqual(3);
    expect(transcript.speech!.audioSeconds).toBeGreaterThan(50);
    expect(heard.length).toBe(transcript.speech!.uploads);
  });

  test("a 429 from the provider is 503 upstream_blocked with its retry-after", async () => {
    stt.respondWith(() => ({
      status: 429,
      body: {
        error: {
          message:
            "Rate limit reached for model `whisper-large-v3-turbo` on audio seconds per hour (ASPH): Limit 7200, Used 7190, Requested 30. Please try again in 2m5s.",
        },
      },
      headers: { "retry-after": "125" },
    }));
    const error = await refusal(
      reader().read({ transport, videoId: SPEECH_VIDEOS.webm, info: await player(SPEECH_VIDEOS.webm), query }),
    );
    expect(isAppError(error, "upstream_blocked")).toBe(true);
    expect((error as { retryAfterSeconds?: number }).retryAfterSeconds).toBe(125);
    // The routes must not take the provider's 429 for YouTube blocking the route the audio came by.
    expect(isSpeechServiceFailure(error)).toBe(true);
  });

  test("a refusal of the audio by YouTube is not marked as the speech service's", async () => {
    const error = await refusal(
      reader().read({
        transport,
        videoId: SPEECH_VIDEOS.forbidden,
        info: await player(SPEECH_VIDEOS.forbidden),
        query,
      }),
    );
    expect(isAppError(error, "transcript_unavailable")).toBe(true);
    expect(isSpeechServiceFailure(error)).toBe(false);
  });
});
