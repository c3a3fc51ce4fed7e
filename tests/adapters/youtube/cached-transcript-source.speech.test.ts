/** @module Tests of cached-transcript-source.ts for speech: kept under the video alone, one upload. */
import { describe, expect, test } from "bun:test";
import { createMemoryCache } from "../../../src/adapters/cache/memory-cache.ts";
import { createCachedTranscriptSource } from "../../../src/adapters/youtube/cached-transcript-source.ts";
import type { TranscriptSource } from "../../../src/domain/ports.ts";
import type { Transcript, TranscriptQuery } from "../../../src/domain/transcript.ts";

/** A source whose transcripts come from speech for ids starting with `speech`. */
function countingSource() {
  const calls: TranscriptQuery[] = [];
  const source: TranscriptSource = {
    async fetch(videoId, query) {
      calls.push(query);
      const speech = videoId.startsWith("speech") ? { audioSeconds: 59, uploads: 3, sttMs: 10 } : undefined;
      return {
        videoId,
        language: "en",
        isGenerated: !!speech,
        isTranslated: false,
        cues: [{ start: 0, duration: 1, text: "hi" }],
        speech,
      } satisfies Transcript;
    },
  };
  return { source, calls };
}

describe("the transcript cache with speech-to-text on", () => {
  test("a speech transcript serves every language asked: one transcription per video", async () => {
    const counting = countingSource();
    const cached = createCachedTranscriptSource({
      source: counting.source,
      cache: createMemoryCache({ maxEntries: 10 }),
      ttlMs: 60_000,
      speech: true,
    });
    await cached.fetch("speechWebm1", { languages: ["en"], translate: true });
    const other = await cached.fetch("speechWebm1", { languages: ["es"], translate: true });
    expect(counting.calls).toHaveLength(1);
    expect(other.speech?.uploads).toBe(3);
  });

  test("caption transcripts stay per language, and with speech off nothing is shared across languages", async () => {
    const counting = countingSource();
    const on = createCachedTranscriptSource({
      source: counting.source,
      cache: createMemoryCache({ maxEntries: 10 }),
      ttlMs: 60_000,
      speech: true,
    });
    await on.fetch("GJLlxj_dtq8", { languages: ["en"], translate: true });
    await on.fetch("GJLlxj_dtq8", { languages: ["es"], translate: true });
    expect(counting.calls).toHaveLength(2);
    const off = createCachedTranscriptSource({
      source: counting.source,
      cache: createMemoryCache({ maxEntries: 10 }),
      ttlMs: 60_000,
    });
    await off.fetch("speechWebm1", { languages: ["en"], translate: true });
    await off.fetch("speechWebm1", { languages: ["es"], translate: true });
    expect(counting.calls).toHaveLength(4);
  });

  test("the owner's deadline and progress callback reach the source", async () => {
    const counting = countingSource();
    const cached = createCachedTranscriptSource({
      source: counting.source,
      cache: createMemoryCache({ maxEntries: 10 }),
      ttlMs: 60_000,
      speech: true,
    });
    const onTranscribing = () => {};
    await cached.fetch("speechM4a01", { languages: ["en"], translate: true, deadline: 123, onTranscribing });
    expect(counting.calls[0]).toMatchObject({ deadline: 123, onTranscribing });
  });
});
