/** @module Picks the transcript passages that best answer a question within a token budget. */
import { type Bm25, createBm25 } from "./bm25.ts";
import { cueLine, type TokenCounter } from "./chunking.ts";
import { carryScores } from "./aligned-readings.ts";
import { groupPassages, type Passage } from "./passages.ts";
import { termReader } from "./terms.ts";
import { estimateTokens } from "./tokens.ts";
import type { Cue } from "../transcript.ts";
import type { Language } from "../chat-request.ts";

/** The parts of a transcript chosen for a question. */
export interface Excerpts {
  /** Runs of consecutive cues, in transcript order. */
  runs: Cue[][];
  /** False when nothing in the transcript matches the question's words. */
  matched: boolean;
}

/** What the passages are ranked for. */
export interface ExcerptQuery {
  /** The caller's prompt. */
  question: string;
  /** The transcript's language: its words, and the query's, are stemmed by it. */
  language?: Language;
  /**
   * Words the transcript probably uses for what the question asks, in its language (the model's search terms): a
   * second ranking beside the question's own words.
   */
  searchWords?: string;
  /**
   * Scores of the transcript's passages (see `groupPassages`) found elsewhere: the question ranked on another reading
   * of the video and carried over by time (see `carriedScores`).
   */
  carried?: readonly number[];
}

/**
 * Picks the passages that best answer a question, within a token budget:
 * passages ranked by BM25 on the question's words (plus any passage at a
 * timestamp the question names), each taken with its neighbours for
 * context, until the budget is full. Words found in more than half of the
 * passages are ignored: they are that transcript's function words.
 *
 * With search words, passages are ranked on them too, and the two rankings
 * are merged (see `mergeRankings`): the best of each comes first, so a
 * question in the transcript's own words loses nothing to search words that
 * miss, and a question in other words is found by its search words.
 *
 * @param cues the transcript, in order
 * @param query the caller's prompt, or the prompt with its language and search words
 * @param budget most tokens of rendered cue lines
 * @param count token counter
 * @returns the chosen runs of cues
 */
export function selectExcerpts(
  cues: readonly Cue[],
  query: string | ExcerptQuery,
  budget: number,
  count: TokenCounter = estimateTokens,
): Excerpts {
  const { question, language, searchWords, carried } = typeof query === "string" ? { question: query } : query;
  const passages = groupPassages(cues);
  const read = termReader(language, searchWords ? [question, searchWords] : [question]);
  const bm25 = createBm25(passages.map((p) => read(p.text)));
  const own = rankPassages(bm25, read(question));
  for (const seconds of timestampsIn(question)) {
    const at = passages.findLastIndex((p) => p.start <= seconds);
    if (at >= 0) own[at] = Number.POSITIVE_INFINITY;
  }
  const rankings: (readonly number[])[] = [own];
  if (searchWords) rankings.push(rankPassages(bm25, read(searchWords)));
  if (carried) rankings.push(carried);
  const ranked = mergeRankings(...rankings);
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

/**
 * @param query the query's terms
 * @returns each passage's BM25 score on the query; the query's terms found in more than half of the passages are left
 *   out (that transcript's function words)
 */
function rankPassages(index: Bm25, query: readonly string[]): number[] {
  const limit = Math.max(1, Math.floor(index.size / 2));
  return index.scores(query.filter((term) => index.documentFrequency(term) <= limit));
}

/**
 * The question ranked on another reading of the video (the track in the question's own language, where its words are
 * found as written), carried onto the transcript's passages by time (see `carryScores`).
 *
 * @param question the caller's prompt
 * @param other the other reading's cues and language
 * @param cues the transcript the excerpts are chosen from, as `selectExcerpts` is given it
 * @returns one score per passage of `cues` (see `groupPassages`), for `ExcerptQuery.carried`
 */
export function carriedScores(
  question: string,
  other: { cues: readonly Cue[]; language?: Language },
  cues: readonly Cue[],
): number[] {
  const theirs = groupPassages(other.cues);
  const read = termReader(other.language, [question]);
  const scores = rankPassages(createBm25(theirs.map((p) => read(p.text))), read(question));
  return carryScores(theirs, scores, groupPassages(cues));
}

/**
 * Merges rankings of the same passages: the best of each ranking in turn, then every passage by the sum of its
 * scores, each scaled to its ranking's best. A passage several rank well comes before one only one ranks well; a
 * passage none matches is left out.
 *
 * @param rankings each ranking's scores, one per passage (the question's own first: a timestamp it names scores
 *   infinity)
 * @returns indexes of the passages that match, best first
 */
export function mergeRankings(...rankings: readonly (readonly number[])[]): number[] {
  const scaled = rankings.map((scores) => {
    const best = Math.max(0, ...scores.filter((score) => Number.isFinite(score)));
    return scores.map((score) => (score === Number.POSITIVE_INFINITY ? 2 : best > 0 ? score / best : 0));
  });
  const size = Math.max(0, ...scaled.map((scores) => scores.length));
  const fused = Array.from({ length: size }, (_, i) => scaled.reduce((sum, scores) => sum + (scores[i] ?? 0), 0));
  const leaders = [...new Set(scaled.map(bestOf).filter((i) => i >= 0))];
  const rest = fused
    .map((score, i) => [score, i] as const)
    .filter(([score, i]) => score > 0 && !leaders.includes(i))
    .sort((x, y) => y[0] - x[0])
    .map(([, i]) => i);
  return [...leaders, ...rest];
}

/** @returns the index of the highest positive score (the first of equals), or -1 when none is positive */
function bestOf(scores: readonly number[]): number {
  return scores.reduce((best, score, i) => (score > 0 && score > (scores[best] ?? 0) ? i : best), -1);
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
