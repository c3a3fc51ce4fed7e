/** @module One transcript as its plans read it: its lines and their TextRank scores, each made once. */
import type { Cue } from "../transcript.ts";
import { type LineGrain, transcriptLines } from "./chunking.ts";
import { lineCentrality } from "./condense.ts";

/**
 * A transcript as every plan on it reads it: its lines of each grain (see `transcriptLines`) and their TextRank
 * scores (see `lineCentrality`), each made the first time a plan asks. Whoever holds the transcript holds its
 * reading, so a plan made again on it (a replan, the next request on a cached transcript) costs almost nothing.
 */
export interface TranscriptReading {
  readonly cues: readonly Cue[];
  /** @returns the transcript's lines of `grain` (`fine` by default) */
  lines(grain?: LineGrain): readonly Cue[];
  /** @returns the TextRank score of each of `lines(grain)` */
  scores(grain: LineGrain): readonly number[];
}

/** @returns a reading of `cues` that makes nothing until asked */
export function createTranscriptReading(cues: readonly Cue[]): TranscriptReading {
  const lines: Partial<Record<LineGrain, readonly Cue[]>> = {};
  const scores: Partial<Record<LineGrain, readonly number[]>> = {};
  const reading: TranscriptReading = {
    cues,
    lines: (grain = "fine") => lines[grain] ??= transcriptLines(cues, grain),
    scores: (grain) => scores[grain] ??= lineCentrality(reading.lines(grain)),
  };
  return reading;
}
