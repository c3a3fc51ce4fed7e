/** @module Tests of the transcript use case: what it asks the source, what it says of the transcript, its limits. */
import { describe, expect, test } from "bun:test";
import { AppError } from "../../src/domain/errors.ts";
import type { AnswerProgress, TranscriptSource, WorkGate } from "../../src/domain/ports.ts";
import type { Transcript, TranscriptQuery } from "../../src/domain/transcript.ts";
import { createTranscriptReader, describeReading } from "../../src/domain/transcript-reading.ts";
import { FakeTranscripts, openGate, sampleTranscript } from "../support/fake/ports.ts";

const reader = (transcripts: TranscriptSource, gate: WorkGate = openGate, requestTimeoutMs = 5_000) =>
  createTranscriptReader({ transcripts, gate, requestTimeoutMs });

const transcript = (facts: Partial<Transcript>): Transcript => ({ ...sampleTranscript(), ...facts });

describe("createTranscriptReader()", () => {
  test("without a language it asks the source for the video's own track, untranslated", async () => {
    const transcripts = new FakeTranscripts();
    const reading = await reader(transcripts).read({ videoId: "GJLlxj_dtq8" });
    expect(transcripts.calls[0]!.query).toMatchObject({ languages: [], translate: false });
    expect(reading.transcript.cues).toHaveLength(3);
    expect(reading).toMatchObject({ kind: "manual", languageSource: "original", durationSeconds: 316 });
    expect(reading.videoDuration).toBe("5 minutes");
  });

  test("with a language it asks for that track, or YouTube's translation into it, as the chat use case does", async () => {
    const transcripts = new FakeTranscripts();
    transcripts.transcript = transcript({ language: "de", isTranslated: true });
    const reading = await reader(transcripts).read({ videoId: "GJLlxj_dtq8", language: "de" });
    expect(transcripts.calls[0]!.query).toMatchObject({ languages: ["de"], translate: true });
    expect(reading.languageSource).toBe("translated");
  });

  test("tells its steps: the transcript, then each piece of a speech transcription", async () => {
    const transcripts: TranscriptSource = {
      async fetch(_videoId, query: TranscriptQuery) {
        query.onTranscribing?.(0, 2);
        query.onTranscribing?.(1, 2);
        return transcript({ speech: { audioSeconds: 60, uploads: 2, sttMs: 10 } });
      },
    };
    const steps: AnswerProgress[] = [];
    const reading = await reader(transcripts).read({ videoId: "GJLlxj_dtq8" }, { onProgress: (s) => steps.push(s) });
    expect(steps).toEqual([
      { stage: "transcript" },
      { stage: "transcribing", done: 0, total: 2 },
      { stage: "transcribing", done: 1, total: 2 },
    ]);
    expect(reading.kind).toBe("speech-to-text");
  });

  test("goes through the bound on work in flight: a full gate is overloaded, and the source is not asked", async () => {
    const transcripts = new FakeTranscripts();
    const full: WorkGate = { run: () => Promise.reject(new AppError("overloaded", "Busy", { retryAfterSeconds: 2 })) };
    await expect(reader(transcripts, full).read({ videoId: "GJLlxj_dtq8" })).rejects.toMatchObject({
      code: "overloaded",
    });
    expect(transcripts.calls).toHaveLength(0);
  });

  test("speech that heard nothing is transcript_unavailable, told to the caller first (it may be charged)", async () => {
    const transcripts = new FakeTranscripts();
    transcripts.transcript = transcript({ cues: [], speech: { audioSeconds: 60, uploads: 1, sttMs: 5 } });
    let told = 0;
    const read = reader(transcripts).read({ videoId: "GJLlxj_dtq8" }, { onNothingHeard: () => void told++ });
    await expect(read).rejects.toMatchObject({ code: "transcript_unavailable" });
    expect(told).toBe(1);
  });

  test("a source's refusal reaches the caller with its code", async () => {
    const transcripts = new FakeTranscripts();
    transcripts.failWith = "video_unavailable";
    await expect(reader(transcripts).read({ videoId: "GJLlxj_dtq8" })).rejects.toMatchObject({
      code: "video_unavailable",
    });
  });

  test("stops waiting at its time limit with upstream_timeout", async () => {
    const transcripts = new FakeTranscripts();
    transcripts.delayMs = 2_000;
    const started = performance.now();
    await expect(reader(transcripts).read({ videoId: "GJLlxj_dtq8" }, { timeoutMs: 50 })).rejects.toMatchObject({
      code: "upstream_timeout",
    });
    expect(performance.now() - started).toBeLessThan(1_500);
  });

  test("a caller stopped with a reason of its own (a shutdown) is told that reason", async () => {
    const transcripts = new FakeTranscripts();
    transcripts.delayMs = 2_000;
    const controller = new AbortController();
    const read = reader(transcripts).read({ videoId: "GJLlxj_dtq8" }, { signal: controller.signal });
    controller.abort(new AppError("overloaded", "The server is shutting down; send the request again"));
    await expect(read).rejects.toMatchObject({ code: "overloaded", message: expect.stringContaining("shutting") });
  });
});

describe("describeReading()", () => {
  test("the kind: captions by people, YouTube's automatic captions, or speech-to-text", () => {
    expect(describeReading(transcript({}), undefined).kind).toBe("manual");
    expect(describeReading(transcript({ isGenerated: true }), undefined).kind).toBe("automatic");
    const speech = transcript({ isGenerated: false, speech: { audioSeconds: 1, uploads: 1, sttMs: 1 } });
    expect(describeReading(speech, undefined).kind).toBe("speech-to-text");
  });

  test("the language's source: the one asked (en-US is en), a translation, or the video's own", () => {
    expect(describeReading(transcript({ language: "en-US" }), "en").languageSource).toBe("requested");
    expect(describeReading(transcript({ language: "en" }), "EN-gb").languageSource).toBe("requested");
    expect(describeReading(transcript({ language: "fr", isTranslated: true }), "fr").languageSource).toBe(
      "translated",
    );
    expect(describeReading(transcript({ language: "en" }), "fr").languageSource).toBe("original");
    expect(describeReading(transcript({ language: "en" }), undefined).languageSource).toBe("original");
  });

  test("the length: YouTube's metadata, else the last cue's end; none when neither is known", () => {
    expect(describeReading(transcript({ durationSeconds: 59 }), undefined)).toMatchObject({
      durationSeconds: 59,
      videoDuration: "59 seconds",
    });
    const live = describeReading(transcript({ durationSeconds: undefined }), undefined);
    expect(live.durationSeconds).toBeCloseTo(8.939, 3);
    expect(live.videoDuration).toBe("8 seconds");
    const nothing = describeReading(transcript({ durationSeconds: undefined, cues: [] }), undefined);
    expect(nothing.durationSeconds).toBeUndefined();
    expect(nothing.videoDuration).toBe("unknown");
  });
});
