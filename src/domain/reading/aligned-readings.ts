/** @module Carries passage scores from one caption track of a video onto another's passages, by time. */
import type { Passage } from "./passages.ts";

/**
 * Carries passage scores from one reading of a video (a caption track in
 * some language) onto the passages of another, by time: each scored passage
 * gives its score to the passages it overlaps, in proportion to how much of
 * it each one covers; slivers under a quarter of it are dropped, so a
 * neighbour touched at a cue boundary is not quoted as a match. A passage
 * that overlaps none enough gives all to the one it overlaps most (or starts
 * nearest), so a match in any reading always lands somewhere.
 *
 * @param from the scored reading's passages
 * @param scores one score per passage of `from`
 * @param onto the passages to score
 * @returns one score per passage of `onto`
 */
export function carryScores(from: readonly Passage[], scores: readonly number[], onto: readonly Passage[]): number[] {
  const carried = onto.map(() => 0);
  if (onto.length === 0) return carried;
  const spans = onto.map(span);
  from.forEach((passage, i) => {
    const score = scores[i] ?? 0;
    if (score <= 0) return;
    for (const [j, share] of shares(passage, spans)) carried[j]! += score * share;
  });
  return carried;
}

/** @returns start and end (seconds) of a passage: its first cue's start to its last cue's end */
export function span(passage: Passage): [number, number] {
  const last = passage.cues.at(-1);
  const end = last ? last.start + last.duration : passage.start;
  return [passage.start, Math.max(end, passage.start)];
}

/** @returns [index into spans, share of the passage's score] pairs */
function shares(passage: Passage, spans: readonly [number, number][]): [number, number][] {
  const [start, end] = span(passage);
  const length = Math.max(end - start, 1e-6);
  const overlaps = spans.map(([s, e]) => Math.max(0, Math.min(end, e) - Math.max(start, s)) / length);
  const enough = overlaps.flatMap((share, j): [number, number][] => (share >= MIN_SHARE ? [[j, share]] : []));
  if (enough.length > 0) return enough;
  const most = overlaps.indexOf(Math.max(...overlaps));
  return [[overlaps[most]! > 0 ? most : nearest(spans, start), 1]];
}

const MIN_SHARE = 0.25;

function nearest(spans: readonly [number, number][], at: number): number {
  let best = 0;
  spans.forEach(([start], j) => {
    if (Math.abs(start - at) < Math.abs(spans[best]![0] - at)) best = j;
  });
  return best;
}
