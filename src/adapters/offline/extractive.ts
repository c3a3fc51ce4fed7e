import { createBm25 } from "../../domain/bm25.ts";
import { groupPassages, type Passage } from "../../domain/passages.ts";
import { terms } from "../../domain/terms.ts";
import { centrality } from "../../domain/textrank.ts";
import type { Cue } from "../../domain/transcript.ts";

/**
 * The transcript's most central passages (TextRank), in transcript order.
 * About one passage in eight is kept, between 3 and 10.
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
 * for nothing.
 *
 * @param cues the transcript
 * @param question the caller's prompt
 * @param most upper bound of passages kept (3 by default)
 * @returns the matching passages, in transcript order; none when nothing matches
 */
export function relevantPassages(cues: readonly Cue[], question: string, most = 3): Passage[] {
  const passages = groupPassages(cues);
  const index = createBm25(passages.map((p) => terms(p.text)));
  const limit = Math.max(1, Math.floor(passages.length / 2));
  const scores = index.scores(terms(question).filter((term) => index.documentFrequency(term) <= limit));
  const matching = scores.filter((s) => s > 0).length;
  return topInOrder(passages, scores, Math.min(most, matching));
}

function topInOrder(passages: readonly Passage[], scores: readonly number[], keep: number): Passage[] {
  const best = scores
    .map((score, i) => [score, i] as const)
    .sort((a, b) => b[0] - a[0] || a[1] - b[1])
    .slice(0, keep)
    .map(([, i]) => i)
    .sort((a, b) => a - b);
  return best.map((i) => passages[i]!);
}
