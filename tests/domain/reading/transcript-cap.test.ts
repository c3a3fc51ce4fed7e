/** @module Tests of the transcript cap: what is kept of a track past it, and what the cut says. */
import { describe, expect, test } from "bun:test";
import { capTranscript, TRANSCRIPT_CAP } from "../../../src/domain/reading/transcript-cap.ts";
import type { Cue, Transcript } from "../../../src/domain/transcript.ts";

const transcript = (cues: Cue[]): Transcript => ({
  videoId: "dQw4w9WgXcQ",
  language: "en",
  isGenerated: false,
  isTranslated: false,
  cues,
});
const cue = (start: number, text: string): Cue => ({ start, duration: 2, text });

describe("capTranscript()", () => {
  test("returns a transcript within the cap as it is, with no cut", () => {
    const within = transcript([cue(0, "hello there"), cue(2, "general kenobi")]);
    expect(capTranscript(within)).toBe(within);
    expect(capTranscript(within).cut).toBeUndefined();
  });

  test("keeps whole cues from the beginning while both the cues and the characters stay within the cap", () => {
    const cues = Array.from({ length: 10 }, (_, i) => cue(i * 2, "ten chars."));
    const byCharacters = capTranscript(transcript(cues), { cues: 100, characters: 35 });
    expect(byCharacters.cues.map((c) => c.start)).toEqual([0, 2, 4]);
    expect(byCharacters.cut).toEqual({ cues: 10, characters: 100, keptUntilSeconds: 6 });
    const byCues = capTranscript(transcript(cues), { cues: 4, characters: 1_000 });
    expect(byCues.cues).toHaveLength(4);
    expect(byCues.cut).toEqual({ cues: 10, characters: 100, keptUntilSeconds: 8 });
  });

  test("cuts a first cue longer than the cap alone between characters, so something is always read", () => {
    const capped = capTranscript(transcript([cue(0, "x".repeat(50)), cue(2, "y")]), { cues: 10, characters: 20 });
    expect(capped.cues).toEqual([{ start: 0, duration: 2, text: "x".repeat(20) }]);
    expect(capped.cut?.characters).toBe(51);
  });

  test("the default cap keeps about 9 hours of speech: 30,000 cues and 500,000 characters", () => {
    expect(TRANSCRIPT_CAP).toEqual({ cues: 30_000, characters: 500_000 });
    const long = Array.from({ length: 40_000 }, (_, i) => cue(i * 2, "short"));
    expect(capTranscript(transcript(long)).cues).toHaveLength(30_000);
  });
});
