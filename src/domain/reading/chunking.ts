/** @module Renders cues as `[m:ss]` lines and cuts transcripts into lines and token-bounded chunks. */
import { groupPassages } from "./passages.ts";
import { estimateTokens } from "./tokens.ts";
import { type Cue, formatTimestamp } from "../transcript.ts";

/** Consecutive cues that fit one LLM call. */
export interface Chunk {
  cues: Cue[];
  /** Estimated tokens of the chunk's rendered lines. */
  tokens: number;
}

/** Tokens of a text, e.g. {@linkcode estimateTokens}. */
export type TokenCounter = (text: string) => number;

/** Writes a cue as the `[m:ss] text` line the model reads and cites. */
export function cueLine(cue: Cue): string {
  return `[${formatTimestamp(cue.start)}] ${cue.text}`;
}

/** Writes cues as lines, one per cue. */
export function renderCues(cues: readonly Cue[]): string {
  return cues.map(cueLine).join("\n");
}

/** Words per line: `fine` for short videos and excerpts, `coarse` for map-reduce over long ones. */
const LINE_WORDS = { fine: { minWords: 8, maxWords: 45 }, coarse: { minWords: 70, maxWords: 140 } } as const;

/** How long a transcript's lines are (see `transcriptLines`). */
export type LineGrain = keyof typeof LINE_WORDS;

/**
 * Joins short caption cues into lines of one or more sentences (see
 * `groupPassages`), each starting on a cue. A timestamp per line rather
 * than per two-second cue keeps timestamps from costing a quarter of the
 * tokens sent: `fine` lines (8 to 45 words, a sentence or two) cite
 * precisely; `coarse` lines (70 to 140 words, about 40 s of speech) are for
 * long videos, where every token counts.
 *
 * @param cues the transcript
 * @param grain `fine` or `coarse`
 * @returns one cue-like line per passage: start of its first cue, duration to the end of its last
 */
export function transcriptLines(cues: readonly Cue[], grain: LineGrain = "fine"): readonly Cue[] {
  return Object.freeze(
    groupPassages(cues, LINE_WORDS[grain]).map((p) => {
      const last = p.cues.at(-1)!;
      return { start: p.start, duration: last.start + last.duration - p.start, text: p.text };
    }),
  );
}

/**
 * Splits a transcript on cue boundaries into chunks of at most `budget`
 * tokens each (a cue's line and its newline). Chunks are balanced: a
 * transcript needing n chunks gets n of about equal size rather than n - 1
 * full ones and a scrap, so concurrent calls finish together. A single cue
 * longer than the budget (rare: a caption dump without timing) is cut
 * between words into pieces that keep its start time.
 *
 * @param cues the transcript, in order
 * @param budget most tokens in one chunk (at least 1)
 * @param count token counter
 * @returns the chunks in transcript order; none for no cues
 */
export function chunkCues(cues: readonly Cue[], budget: number, count: TokenCounter = estimateTokens): Chunk[] {
  const pieces = cues.flatMap((cue) => fitCue(cue, budget, count));
  const costs = pieces.map((cue) => count(cueLine(cue)) + 1);
  let remaining = costs.reduce((sum, cost) => sum + cost, 0);
  const planned = Math.max(1, Math.ceil(remaining / budget));
  const chunks: Chunk[] = [];
  let current: Chunk = { cues: [], tokens: 0 };
  let target = Math.min(budget, remaining / planned);
  pieces.forEach((cue, index) => {
    const cost = costs[index]!;
    const after = current.tokens + cost;
    // Take the cue while it brings the chunk closer to its share, never past the budget.
    const take = current.cues.length === 0 || after <= target ||
      (after <= budget && after - target < target - current.tokens);
    if (!take) {
      chunks.push(current);
      remaining -= current.tokens;
      target = Math.min(budget, remaining / Math.max(1, planned - chunks.length));
      current = { cues: [], tokens: 0 };
    }
    current.cues.push(cue);
    current.tokens += cost;
  });
  if (current.cues.length > 0) chunks.push(current);
  return chunks;
}

/**
 * @returns the cue, or its pieces when its line alone is over the budget. A piece is priced as its line's start and
 *   its words counted one by one: a word's count with its space is never less than what it adds to a line's (the
 *   estimate is a sum of weights, rounded up), so a piece never passes the budget, and a cue of many thousand words
 *   is cut in time proportional to its length.
 */
function fitCue(cue: Cue, budget: number, count: TokenCounter): Cue[] {
  if (count(cueLine(cue)) + 1 <= budget) return [cue];
  const pieces: Cue[] = [];
  const base = count(cueLine({ ...cue, text: "" })) + 1;
  let words: string[] = [];
  let used = base;
  for (const word of cue.text.split(/\s+/u).flatMap((w) => splitLongWord(w, budget, count))) {
    const cost = count(` ${word}`);
    if (words.length > 0 && used + cost > budget) {
      pieces.push({ ...cue, text: words.join(" ") });
      words = [];
      used = base;
    }
    words.push(word);
    used += cost;
  }
  if (words.length > 0) pieces.push({ ...cue, text: words.join(" ") });
  return pieces;
}

/** Cuts a word that alone is over the budget (a budget of a few tokens, or a giant token). */
function splitLongWord(word: string, budget: number, count: TokenCounter): string[] {
  if (count(`[00:00:00] ${word}`) + 1 <= budget) return [word];
  const chars = [...word];
  const size = Math.max(1, Math.floor(chars.length / Math.ceil(count(word) / Math.max(1, budget - 8))));
  const parts: string[] = [];
  for (let i = 0; i < chars.length; i += size) parts.push(chars.slice(i, i + size).join(""));
  return parts;
}
