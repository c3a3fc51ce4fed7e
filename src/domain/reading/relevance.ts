/** @module Picks the transcript passages that best answer a question within a token budget. */
import { createBm25 } from "./bm25.ts";
import { cueLine, type TokenCounter } from "./chunking.ts";
import { groupPassages, type Passage } from "./passages.ts";
import { terms } from "./terms.ts";
import { estimateTokens } from "./tokens.ts";
import type { Cue } from "../transcript.ts";

/** The parts of a transcript chosen for a question. */
export interface Excerpts {
  /** Runs of consecutive cues, in transcript order. */
  runs: Cue[][];
  /** False when nothing in the transcript matches the question's words. */
  matched: boolean;
}

/**
 * Picks the passages that best answer a question, within a token budget:
 * passages ranked by BM25 on the question's words (plus any passage at a
 * timestamp the question names), each taken with its neighbours for
 * context, until the budget is full. Words found in more than half of the
 * passages are ignored: they are that transcript's function words.
 *
 * @param cues the transcript, in order
 * @param question the caller's prompt
 * @param budget most tokens of rendered cue lines
 * @param count token counter
 * @returns the chosen runs of cues
 */
export function selectExcerpts(
  cues: readonly Cue[],
  question: string,
  budget: number,
  count: TokenCounter = estimateTokens,
): Excerpts {
  const passages = groupPassages(cues);
  const ranked = rankPassages(passages, question);
  if (ranked.length === 0) return { runs: [], matched: false };
  const chosen = new Set<number>();
  let used = 0;
  const cost = (index: number) => passages[index]!.cues.reduce((sum, cue) => sum + count(cueLine(cue)) + 1, 0) + 2;
  for (const index of ranked) {
    for (const member of [index, index - 1, index + 1]) {
      if (member < 0 || member >= passages.length || chosen.has(member)) continue;
      const price = cost(member);
      if (used + price > budget) continue;
      chosen.add(member);
      used += price;
    }
  }
  return { runs: toRuns(passages, [...chosen].sort((a, b) => a - b)), matched: chosen.size > 0 };
}

/** @returns indexes of passages that match the question, best first */
function rankPassages(passages: readonly Passage[], question: string): number[] {
  const index = createBm25(passages.map((p) => terms(p.text)));
  const limit = Math.max(1, Math.floor(passages.length / 2));
  const query = terms(question).filter((term) => index.documentFrequency(term) <= limit);
  const scores = index.scores(query);
  for (const seconds of timestampsIn(question)) {
    const at = passages.findLastIndex((p) => p.start <= seconds);
    if (at >= 0) scores[at] = Number.POSITIVE_INFINITY;
  }
  return scores
    .map((score, i) => [score, i] as const)
    .filter(([score]) => score > 0)
    .sort((a, b) => b[0] - a[0])
    .map(([, i]) => i);
}

/** @returns seconds of each `m:ss` or `h:mm:ss` written in the text */
export function timestampsIn(text: string): number[] {
  return [...text.matchAll(/(?<![\d:])(?:(\d{1,2}):)?(\d{1,2}):(\d{2})(?![\d:])/g)].map(
    (m) => Number(m[1] ?? 0) * 3600 + Number(m[2]) * 60 + Number(m[3]),
  );
}

function toRuns(passages: readonly Passage[], indexes: readonly number[]): Cue[][] {
  const runs: Cue[][] = [];
  let previous = -2;
  for (const index of indexes) {
    const cues = passages[index]!.cues;
    if (index === previous + 1 && runs.length > 0) runs.at(-1)!.push(...cues);
    else runs.push([...cues]);
    previous = index;
  }
  return runs;
}
