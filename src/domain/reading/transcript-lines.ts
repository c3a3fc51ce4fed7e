/** @module One transcript's lines and their TextRank scores, each made the first time a plan asks. */
import type { Cue } from "../transcript.ts";
import { type LineGrain, transcriptLines } from "./chunking.ts";
import { lineCentrality } from "./condense.ts";

/**
 * A transcript's lines of each grain (see `transcriptLines`) and their TextRank scores (see `lineCentrality`), each
 * made the first time a plan asks. Whoever holds the transcript holds these, so a plan made again on it (a replan,
 * the next request on a cached transcript) neither cuts the lines nor scores them again.
 */
export interface TranscriptLines {
  readonly cues: readonly Cue[];
  /** @returns the transcript's lines of `grain` (`fine` by default) */
  lines(grain?: LineGrain): readonly Cue[];
  /** @returns the TextRank score of each of `lines(grain)` */
  scores(grain: LineGrain): readonly number[];
}

/** @returns the lines of `cues`, made on first ask */
export function createTranscriptLines(cues: readonly Cue[]): TranscriptLines {
  const made: Partial<Record<LineGrain, readonly Cue[]>> = {};
  const scored: Partial<Record<LineGrain, readonly number[]>> = {};
  const lines = (grain: LineGrain = "fine") => made[grain] ??= transcriptLines(cues, grain);
  return {
    cues,
    lines,
    scores: (grain) => scored[grain] ??= lineCentrality(lines(grain)),
  };
}

/**
 * @returns where a holder of transcripts keeps each one's lines while the transcript lives: the same cues get the same
 *   lines, made once
 */
export function createLinesKeeper(): (cues: readonly Cue[]) => TranscriptLines {
  const kept = new WeakMap<readonly Cue[], TranscriptLines>();
  return (cues) => {
    let lines = kept.get(cues);
    if (!lines) kept.set(cues, lines = createTranscriptLines(cues));
    return lines;
  };
}
