/** @module Groups caption cues into sentence-like passages for ranking. */
import type { Cue } from "../transcript.ts";

/** A few consecutive cues read as one sentence-like unit. */
export interface Passage {
  /** Start of the first cue, seconds. */
  start: number;
  cues: Cue[];
  text: string;
}

const SENTENCE_END = /[.!?。！？।…]["'”’)\]]*$/u;

/**
 * Groups cues into passages for ranking: a passage ends at a cue closing a
 * sentence once it has `minWords`, or at `maxWords` whatever the
 * punctuation (auto-generated captions have none). Passages start on a cue,
 * so each has a timestamp that exists in the transcript.
 *
 * @param cues the transcript, in order
 * @param options word bounds of a passage (8 and 45 by default)
 * @returns the passages, in order
 */
export function groupPassages(cues: readonly Cue[], options: { minWords?: number; maxWords?: number } = {}): Passage[] {
  const minWords = options.minWords ?? 8;
  const maxWords = options.maxWords ?? 45;
  const passages: Passage[] = [];
  let current: Cue[] = [];
  let words = 0;
  const close = () => {
    if (current.length === 0) return;
    passages.push({ start: current[0]!.start, cues: current, text: current.map((c) => c.text).join(" ") });
    current = [];
    words = 0;
  };
  for (const cue of cues) {
    const cueWords = cue.text.split(/\s+/u).filter(Boolean).length;
    if (current.length > 0 && words + cueWords > maxWords) close();
    current.push(cue);
    words += cueWords;
    if (words >= minWords && SENTENCE_END.test(cue.text.trim())) close();
  }
  close();
  return passages;
}
