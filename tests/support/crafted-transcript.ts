/** @module Crafted worst-case transcripts of a given size, as an uploader could write their own captions. */
import type { GeneratedCue } from "./long-transcript.ts";

/**
 * The shapes a hostile caption track takes to make reading it expensive:
 * `shared-words` lines of 70 words where every word is said in a sixth of the lines (just under the point where
 * ranking ignores a word: the most pairs of lines that share words); `long-lines` a few cues of many thousand words
 * (one line each, cut between words to fit a call); `distinct-words` no word said twice (the largest indexes);
 * `max-cues` as many one-word cues as the size allows.
 */
export const CRAFTED_SHAPES = ["shared-words", "long-lines", "distinct-words", "max-cues"] as const;
export type CraftedShape = (typeof CRAFTED_SHAPES)[number];

/** How large a crafted transcript is: most cues and most characters of text, both reached where the shape can. */
export interface CraftedSize {
  cues: number;
  characters: number;
}

const WORDS_PER_LINE = 70;
/** Lines sharing each word: a word is said in one line of this many. */
const SHARE = 6;

/**
 * @param shape see {@link CRAFTED_SHAPES}
 * @param size the most cues and characters of text it may have
 * @returns the cues, two seconds apart, deterministic
 */
export function craftedCues(shape: CraftedShape, size: CraftedSize): GeneratedCue[] {
  const texts = craftedTexts(shape, size);
  return texts.map((text, i) => ({ start: i * 2, duration: 2, text }));
}

function craftedTexts(shape: CraftedShape, size: CraftedSize): string[] {
  switch (shape) {
    case "shared-words":
      return fill(size, (i) => {
        const first = (i % SHARE) * WORDS_PER_LINE;
        return `${Array.from({ length: WORDS_PER_LINE }, (_, j) => word(first + j)).join(" ")}.`;
      });
    case "long-lines": {
      const lines = 8;
      const perLine = Math.floor(size.characters / lines / 7);
      return Array.from(
        { length: lines },
        (_, i) => Array.from({ length: perLine }, (_, j) => word((i * 7919 + j * 31) % 5000)).join(" "),
      );
    }
    case "distinct-words":
      return fill(
        size,
        (i) => Array.from({ length: WORDS_PER_LINE }, (_, j) => word(i * WORDS_PER_LINE + j)).join(" "),
      );
    case "max-cues":
      return fill(size, (i) => `${word(i % 500)}.`);
  }
}

/** Texts made by `line(i)` while both the cue count and the characters stay within `size`. */
function fill(size: CraftedSize, line: (index: number) => string): string[] {
  const texts: string[] = [];
  let characters = 0;
  for (let i = 0; i < size.cues; i++) {
    const text = line(i);
    if (characters + text.length > size.characters) break;
    texts.push(text);
    characters += text.length;
  }
  return texts;
}

/** The `index`-th six-letter word: a `q` and five letters, so no stop word and no two alike in a term's six letters. */
function word(index: number): string {
  let letters = "";
  let rest = index;
  for (let i = 0; i < 5; i++) {
    letters = String.fromCharCode(97 + (rest % 26)) + letters;
    rest = Math.floor(rest / 26);
  }
  return `q${letters}`;
}
