/** @module Condenses a transcript to a token budget, keeping central lines spread over its timeline. */
import { cueLine, type TokenCounter } from "./chunking.ts";
import { terms } from "./terms.ts";
import { centrality } from "./textrank.ts";
import { estimateTokens } from "./tokens.ts";
import type { Cue } from "../transcript.ts";

/** A transcript cut down to a token budget. */
export interface Condensed {
  lines: Cue[];
  /** Tokens of the kept lines. */
  tokens: number;
  /** Tokens of all the lines. */
  totalTokens: number;
}

/**
 * Keeps the most informative lines of a transcript within `budget` tokens,
 * spread evenly over its whole timeline: the timeline is cut into as many
 * equal stretches as lines can be kept, and each stretch gives its most
 * central line (TextRank). The first and last lines are always kept, so the
 * beginning and the end of the video are represented.
 *
 * @param lines the transcript as lines, in order (see `transcriptLines`)
 * @param budget most tokens of rendered lines (each line and its newline)
 * @param count token counter
 * @param scores the lines' TextRank scores (see `lineCentrality`), asked for only when some lines must go
 * @returns the kept lines in transcript order
 */
export function condenseLines(
  lines: readonly Cue[],
  budget: number,
  count: TokenCounter = estimateTokens,
  scores: () => readonly number[] = () => lineCentrality(lines),
): Condensed {
  const costs = lines.map((line) => count(cueLine(line)) + 1);
  const totalTokens = costs.reduce((sum, cost) => sum + cost, 0);
  if (totalTokens <= budget) return { lines: [...lines], tokens: totalTokens, totalTokens };
  const central = scores();
  const average = totalTokens / Math.max(1, lines.length);
  let stretches = Math.max(1, Math.floor(budget / average));
  let kept = pickPerStretch(central, stretches);
  while (sum(kept, costs) > budget && stretches > 1) kept = pickPerStretch(central, --stretches);
  kept = fillUp(kept, central, costs, budget);
  const chosen = kept.filter((index) => costs[index]! <= budget);
  return { lines: chosen.map((index) => lines[index]!), tokens: sum(chosen, costs), totalTokens };
}

/** @returns the TextRank score of each line (see `centrality`), in order */
export function lineCentrality(lines: readonly Cue[]): readonly number[] {
  return centrality(lines.map((line) => terms(line.text)));
}

/** Indexes of the best line of each of `stretches` equal stretches, first and last lines forced. */
function pickPerStretch(scores: readonly number[], stretches: number): number[] {
  const n = scores.length;
  const picks = new Set<number>();
  for (let s = 0; s < stretches; s++) {
    const from = Math.floor((s * n) / stretches);
    const to = Math.max(from + 1, Math.floor(((s + 1) * n) / stretches));
    let best = from;
    for (let i = from; i < to; i++) if (scores[i]! > scores[best]!) best = i;
    picks.add(best);
  }
  if (stretches >= 2) {
    replaceNearest(picks, 0);
    replaceNearest(picks, n - 1);
  } else picks.add(n - 1).add(0);
  return [...picks].sort((a, b) => a - b);
}

/** Swaps the pick closest to `edge` for `edge` itself. */
function replaceNearest(picks: Set<number>, edge: number): void {
  if (picks.has(edge)) return;
  const nearest = [...picks].reduce((a, b) => (Math.abs(b - edge) < Math.abs(a - edge) ? b : a));
  picks.delete(nearest);
  picks.add(edge);
}

/** Adds the best remaining lines while they fit, so rounding leaves no budget unused. */
function fillUp(kept: number[], scores: readonly number[], costs: readonly number[], budget: number): number[] {
  const chosen = new Set(kept);
  let used = sum(kept, costs);
  const rest = scores.map((score, i) => [score, i] as const).filter(([, i]) => !chosen.has(i)).sort((a, b) =>
    b[0] - a[0]
  );
  for (const [, index] of rest) {
    if (used + costs[index]! > budget) continue;
    chosen.add(index);
    used += costs[index]!;
  }
  return [...chosen].sort((a, b) => a - b);
}

function sum(indexes: readonly number[], costs: readonly number[]): number {
  return indexes.reduce((total, index) => total + costs[index]!, 0);
}
