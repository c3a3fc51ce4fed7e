/** @module Tests of groq-transcriber.ts against a loopback Groq: the upload, segments, failures. */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { cutAudio } from "../../../src/adapters/speech/audio-pieces.ts";
import { createGroqTranscriber, SpeechLimitError } from "../../../src/adapters/speech/groq-transcriber.ts";
import { isAppError } from "../../../src/domain/errors.ts";
import { startFakeLlm } from "../../support/fake/llm.ts";
import { startFakeStt } from "../../support/fake/stt.ts";
import { AUDIO } from "../../support/fake/youtube-audio.ts";

const llm = startFakeLlm();
const stt = startFakeStt(llm.baseUrl);
afterEach(() => stt.reset());
afterAll(async () => {
  await stt.close();
  await llm.close();
});

const KEY = "gsk_secret_for_transcriber_tests";
const transcribe = createGroqTranscriber({
  apiKey: KEY,
  baseUrl: stt.baseUrl,
  model: "whisper-large-v3-turbo",
  timeoutMs: 10_000,
});
const [piece] = (await cutAudio(AUDIO.webm, 1_000_000)).pieces;

async function refusal(promise: Promise<unknown>) {
  return await promise.then(() => {
    throw new Error("expected a refusal");
  }, (error) => error);
}

describe("createGroqTranscriber", () => {
  test("uploads the piece as multipart with the container's extension, the model, verbose_json and segment timestamps", async () => {
    const heard = await transcribe(piece!, "speechWebm1");
    expect(stt.uploads).toHaveLength(1);
    expect(stt.uploads[0]).toMatchObject({
      fileName: "audio.webm",
      model: "whisper-large-v3-turbo",
      responseFormat: "verbose_json",
      granularities: ["segment"],
      status: 200,
    });
    expect(stt.uploads[0]!.bytes).toEqual(piece!.bytes);
    expect(heard.language).toBe("English");
    expect(heard.segments.length).toBe(12);
    expect(heard.segments[0]).toEqual({ start: 0, end: 5, text: "Rivers carry water, upload 0 part 0." });
    // Groq's request headers count the day's requests (Whisper's free plan: 2,000 a day).
    expect(heard.report).toMatchObject({ dayRequestLimit: 2000, dayRequestsRemaining: 1999 });
  });

  test("a 429 is a SpeechLimitError: its retry-after and figures for the budget, 503 upstream_blocked for the caller", async () => {
    stt.respondWith(() => ({
      status: 429,
      body: {
        error: {
          message:
            "Rate limit reached on audio seconds per hour (ASPH): Limit 7200, Used 7190, Requested 60. Please try again in 1m30s.",
        },
      },
    }));
    const error = await refusal(transcribe(piece!, "v"));
    expect(error).toBeInstanceOf(SpeechLimitError);
    expect(error.report.retryAfterMs).toBe(90_000);
    expect(isAppError(error.error, "upstream_blocked")).toBe(true);
    expect(error.error.retryAfterSeconds).toBe(90);
  });

  test("a file the provider cannot decode is 422 transcript_unavailable; its 5xx is 502; the key is in no message", async () => {
    const garbage = { ...piece!, bytes: new TextEncoder().encode("not audio at all") };
    const unreadable = await refusal(transcribe(garbage, "v"));
    expect(isAppError(unreadable, "transcript_unavailable")).toBe(true);
    stt.respondWith(() => ({ status: 500, body: { error: { message: `internal error for ${KEY}` } } }));
    const failed = await refusal(transcribe(piece!, "v"));
    expect(isAppError(failed, "upstream_error")).toBe(true);
    for (const error of [unreadable, failed]) expect(error.message).not.toContain(KEY);
  });

  test("an answer without segments is 502 upstream_error", async () => {
    stt.respondWith(() => ({ status: 200, body: { text: "no segments" } }));
    expect(isAppError(await refusal(transcribe(piece!, "v")), "upstream_error")).toBe(true);
  });
});
