/** @module Tests of choosing and fetching the offline engine's second reading of a video. */
import { describe, expect, test } from "bun:test";
import { fetchOtherReading, otherReadingLanguage } from "../../../src/adapters/offline/other-reading.ts";
import { AppError } from "../../../src/domain/errors.ts";
import type { TranscriptSource } from "../../../src/domain/ports.ts";
import type { Transcript, TranscriptQuery } from "../../../src/domain/transcript.ts";

const quoted = (language: string, videoLanguage?: string): Transcript => ({
  videoId: "vid",
  language,
  isGenerated: false,
  isTranslated: language !== videoLanguage,
  videoLanguage,
  cues: [{ start: 0, duration: 5, text: "texto" }],
});

/** A source that records its queries and answers in the language asked, as one YouTube request (or fails). */
function source(
  options: { fail?: boolean; requests?: number } = {},
): TranscriptSource & { queries: TranscriptQuery[] } {
  const queries: TranscriptQuery[] = [];
  return {
    queries,
    async fetch(videoId, query) {
      queries.push(query);
      for (let i = 0; i < (options.requests ?? 1); i++) query.observer?.request?.();
      if (options.fail) throw new AppError("upstream_error", "YouTube failed");
      return { ...quoted(String(query.languages[0]), "en"), videoId };
    },
  };
}

describe("otherReadingLanguage()", () => {
  test("is the question's language when it can be told and the quoted track is in another", () => {
    expect(otherReadingLanguage("How long does the battery last?", quoted("es", "es"), "es")).toBe("en");
    expect(otherReadingLanguage("Сколько держит батарея?", quoted("pt", "en"), "pt")).toBe("ru");
  });

  test("is the video's own language when the question's cannot be told, or is the quoted track's", () => {
    expect(otherReadingLanguage("battery?", quoted("es", "en-US"), "es")).toBe("en");
    expect(otherReadingLanguage("¿Cuánto dura la batería?", quoted("es", "en"), "es")).toBe("en");
  });

  test("never asks again for the response language: the quoted track is what YouTube had for it", () => {
    expect(otherReadingLanguage("बैटरी कितनी देर चलती है?", quoted("en", "en"), "hi")).toBeUndefined();
    expect(otherReadingLanguage("बैटरी कितनी देर चलती है?", quoted("en", "de"), "hi")).toBe("de");
  });

  test("is none when the quoted track is both the question's and the video's language, or nothing is known", () => {
    expect(otherReadingLanguage("How long does the battery last?", quoted("en", "en"), "en")).toBeUndefined();
    expect(otherReadingLanguage("battery?", quoted("en-GB", "en"), "en")).toBeUndefined();
    expect(otherReadingLanguage("battery?", quoted("es"), "es")).toBeUndefined();
  });
});

describe("fetchOtherReading()", () => {
  test("fetches one track in the other language, marked as a rereading, and counts its requests", async () => {
    const tracks = source();
    const other = await fetchOtherReading(tracks, {
      transcript: quoted("es", "es"),
      language: "es",
      prompt: "How long does the battery last?",
    });
    expect(other.transcript?.language).toBe("en");
    expect(other.youtubeRequests).toBe(1);
    expect(tracks.queries).toHaveLength(1);
    expect(tracks.queries[0]).toMatchObject({ languages: ["en"], translate: true, rereading: true });
  });

  test("fetches nothing when no other reading would help, or no source is given", async () => {
    const tracks = source();
    expect(
      await fetchOtherReading(tracks, {
        transcript: quoted("en", "en"),
        language: "en",
        prompt: "How long does the battery last?",
      }),
    ).toEqual({ youtubeRequests: 0 });
    expect(
      await fetchOtherReading(undefined, {
        transcript: quoted("es", "es"),
        language: "es",
        prompt: "How long does the battery last?",
      }),
    ).toEqual({ youtubeRequests: 0 });
    expect(tracks.queries).toHaveLength(0);
  });

  test("a failed second reading is no reading, its requests still counted", async () => {
    const other = await fetchOtherReading(source({ fail: true, requests: 2 }), {
      transcript: quoted("es", "es"),
      language: "es",
      prompt: "How long does the battery last?",
    });
    expect(other).toEqual({ youtubeRequests: 2 });
  });

  test("a track that came back in the quoted language is not a second reading", async () => {
    const same: TranscriptSource = { fetch: async () => quoted("es-419", "es") };
    expect(
      (await fetchOtherReading(same, {
        transcript: quoted("es", "es"),
        language: "es",
        prompt: "How long does the battery last?",
      })).transcript,
    ).toBeUndefined();
  });
});
