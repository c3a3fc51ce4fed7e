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

/** Told of what was made for a transcript's cues (a grain's lines, or their scores), which lives as long as they do. */
export type LinesMade = (cues: readonly Cue[], made: readonly Cue[] | readonly number[]) => void;

/**
 * @param onMade told of each grain's lines and scores once made
 * @returns the lines of `cues`, made on first ask
 */
export function createTranscriptLines(cues: readonly Cue[], onMade?: LinesMade): TranscriptLines {
  const made: Partial<Record<LineGrain, readonly Cue[]>> = {};
  const scored: Partial<Record<LineGrain, readonly number[]>> = {};
  const tell = <T extends readonly Cue[] | readonly number[]>(value: T): T => (onMade?.(cues, value), value);
  const lines = (grain: LineGrain = "fine") => made[grain] ??= tell(transcriptLines(cues, grain));
  return {
    cues,
    lines,
    scores: (grain) => scored[grain] ??= tell(lineCentrality(lines(grain))),
  };
}

/** Where a holder of transcripts keeps each one's lines while the transcript lives (see `createLinesKeeper`). */
export type LinesKeeper = (cues: readonly Cue[]) => TranscriptLines;

/**
 * @param onMade told of each grain's lines and scores made for a transcript, so that whoever keeps the transcript (a
 *   cache bounded in bytes) counts them with it
 * @returns where a holder of transcripts keeps each one's lines while the transcript lives: the same cues get the same
 *   lines, made once
 */
export function createLinesKeeper(onMade?: LinesMade): LinesKeeper {
  const kept = new WeakMap<readonly Cue[], TranscriptLines>();
  return (cues) => {
    let lines = kept.get(cues);
    if (!lines) kept.set(cues, lines = createTranscriptLines(cues, onMade));
    return lines;
  };
}
