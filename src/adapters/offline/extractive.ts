/** @module Picks a transcript's central passages (TextRank) or those relevant to a question (BM25). */
import { carryScores } from "../../domain/reading/aligned-readings.ts";
import { createBm25 } from "../../domain/reading/bm25.ts";
import { distinctBest } from "../../domain/reading/near-duplicates.ts";
import { groupPassages, type Passage } from "../../domain/reading/passages.ts";
import { terms } from "../../domain/reading/terms.ts";
import { centrality } from "../../domain/reading/textrank.ts";
import type { Cue } from "../../domain/transcript.ts";

/**
 * The transcript's most central passages (TextRank), in transcript order.
 * About one passage in eight is kept, between 3 and 10; a near-duplicate of
 * a passage already kept (a line the video repeats) is skipped.
 *
 * @param cues the transcript
 * @param most upper bound of passages kept (10 by default)
 * @returns the chosen passages, in transcript order
 */
export function centralPassages(cues: readonly Cue[], most = 10): Passage[] {
  const passages = groupPassages(cues);
  const keep = Math.min(passages.length, most, Math.max(3, Math.ceil(passages.length / 8)));
  const scores = centrality(passages.map((p) => terms(p.text)));
  return topInOrder(passages, scores, keep);
}

/**
 * The passages sharing the most (BM25-weighted) words with a question, in
 * transcript order; words found in more than half of the passages count
 * for nothing. Other readings of the video (its tracks in other languages,
 * aligned by time) are ranked too, and a moment that matches in any of them
 * counts: the passage quoted is the one of `cues` at that moment.
 *
 * @param cues the transcript quoted from
 * @param question the caller's prompt
 * @param most upper bound of passages kept (3 by default)
 * @param others other readings of the same video, each in time order
 * @returns the matching passages of `cues`, in transcript order; none when nothing matches in any reading
 */
export function relevantPassages(
  cues: readonly Cue[],
  question: string,
  most = 3,
  others: readonly (readonly Cue[])[] = [],
): Passage[] {
  const passages = groupPassages(cues);
  const scores = matchScores(passages, question);
  for (const other of others) {
    const theirs = groupPassages(other);
    carryScores(theirs, matchScores(theirs, question), passages).forEach((score, i) => {
      scores[i] = Math.max(scores[i]!, score);
    });
  }
  return topInOrder(passages, scores, most, true);
}

/** BM25 scores of a reading's passages for a question. */
function matchScores(passages: readonly Passage[], question: string): number[] {
  const index = createBm25(passages.map((p) => terms(p.text)));
  const limit = Math.max(1, Math.floor(passages.length / 2));
  return index.scores(terms(question).filter((term) => index.documentFrequency(term) <= limit));
}

function topInOrder(
  passages: readonly Passage[],
  scores: readonly number[],
  keep: number,
  matchingOnly = false,
): Passage[] {
  const ranked = scores
    .map((score, i) => [score, i] as const)
    .filter(([score]) => !matchingOnly || score > 0)
    .sort((a, b) => b[0] - a[0] || a[1] - b[1])
    .map(([, i]) => i);
  const termsOf = memo((i: number) => terms(passages[i]!.text));
  return distinctBest(ranked, termsOf, keep)
    .sort((a, b) => a - b)
    .map((i) => passages[i]!);
}

function memo<T>(compute: (index: number) => T): (index: number) => T {
  const known = new Map<number, T>();
  return (index) => {
    if (!known.has(index)) known.set(index, compute(index));
    return known.get(index)!;
  };
}
