/** @module Reads what a prompt asks of a video: the literal summary, the whole video, or a moment or detail. */
import { isSummaryPrompt } from "../chat-request.ts";
import { languageFacts, LANGUAGES } from "../languages/languages.ts";
import type { Cue } from "../transcript.ts";
import { groupPassages } from "./passages.ts";
import { STEM_LENGTH, terms } from "./terms.ts";

/**
 * How a prompt is read: `summary` is the literal default prompt; `whole` asks
 * about the whole video in the caller's own words (a summary, the main
 * points, chapters, a list of everything of a kind, the overall argument);
 * `detail` asks about a moment or one thing.
 */
export type Intent = "summary" | "whole" | "detail";

export const INTENTS: readonly Intent[] = ["summary", "whole", "detail"];

/**
 * Reads a prompt's intent. The lexicon decides first (the whole-video
 * phrases of every language in the language table are tried on every prompt, so the prompt's
 * language and the answer's do not matter). A request that is both, a summary
 * or a list of one topic ("summarise what he says about the battery"), is
 * whole: the topic may come up anywhere in the video. Given the transcript, a
 * prompt the lexicon leaves as a detail is read as whole when every word of
 * it the video says is said all along the video (see `aboutTheWholeSubject`).
 *
 * @param prompt the request's prompt (cut, never blank)
 * @param cues the transcript, when it is known
 */
export function readIntent(prompt: string, cues?: readonly Cue[]): Intent {
  if (isSummaryPrompt(prompt)) return "summary";
  if (asksWholeVideo(prompt)) return "whole";
  if (cues && aboutTheWholeSubject(prompt, cues)) return "whole";
  return "detail";
}

/** @returns whether the prompt uses a whole-video phrase of any answer language */
export function asksWholeVideo(prompt: string): boolean {
  const folded = foldPrompt(prompt);
  return WHOLE_VIDEO.some((pattern) => pattern.test(folded));
}

/**
 * The prompt as the lexicon reads it: NFKC, lower case, Latin letters
 * without accents (people drop them: "que" for "qué"), `ё` as `е`, Devanagari
 * without nukta and with anusvara for chandrabindu (both are spelt either
 * way), curly apostrophes straight, hyphens and runs of spaces as one space,
 * no punctuation or emoji at either end.
 */
export function foldPrompt(prompt: string): string {
  return foldLetters(prompt.normalize("NFKC").toLowerCase())
    .normalize("NFD")
    .replace(/(?<=\p{Script=Latin})\p{M}+/gu, "")
    .normalize("NFC")
    .replace(/[’‘`´]/g, "'")
    .replace(/[\s\-‐–—]+/gu, " ")
    .replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{M}\p{N}]+$/gu, "");
}

/** The spelling variants folded in the prompt and in the lexicon alike. */
function foldLetters(text: string): string {
  return text.replace(/ё/g, "е").replace(/\u093C/g, "").replace(/\u0901/g, "\u0902");
}

// A phrase is matched as whole words: no letter, mark or digit right before or after it.
const WHOLE_VIDEO = LANGUAGES.map((language) => {
  const phrases = languageFacts(language).wholeVideoPhrases;
  const alternatives = phrases.map((source) => `(?:${foldLetters(source)})`).join("|");
  return new RegExp(`(?<![\\p{L}\\p{M}\\p{N}])(?:${alternatives})(?![\\p{L}\\p{M}\\p{N}])`, "u");
});

/** Below this many passages a transcript is too short to tell a spread word from a local one. */
const MIN_PASSAGES = 20;
/** Tenths of the timeline a word must be said in to be the subject of the whole video. */
const SPREAD_TENTHS = 8;

/** Words of a question that say nothing of its subject, in every answer language, as `terms` cuts them. */
const GENERIC = new Set(terms(LANGUAGES.map((language) => languageFacts(language).genericWords).join(" ")));

/**
 * A question about the video's own subject ("what does she think of Lisbon"
 * in a video about Lisbon) is a question about the whole video, however it is
 * phrased: true when the prompt has words other than generic ones, the
 * transcript says every one of them, and says each in at least 8 of the 10
 * tenths of its timeline. A word said in one stretch only, or not at all,
 * keeps the prompt a detail (its passages, or the lack of them, answer it).
 *
 * @param prompt the caller's prompt
 * @param cues the transcript, in order
 */
export function aboutTheWholeSubject(prompt: string, cues: readonly Cue[]): boolean {
  const asked = [...new Set(terms(prompt))].filter((term) => !GENERIC.has(term));
  if (asked.length === 0) return false;
  const passages = groupPassages(cues);
  if (passages.length < MIN_PASSAGES) return false;
  const first = passages[0]!.start;
  const span = Math.max(1, passages.at(-1)!.start - first);
  // The passages' text as `terms` reads it, one line each; each asked term is looked for as `terms` would find it.
  const starts: number[] = [];
  let text = "";
  for (const passage of passages) {
    starts.push(text.length);
    text += `${passage.text.normalize("NFKC").toLowerCase()}\n`;
  }
  return asked.every((term) => {
    const tenths = new Set<number>();
    for (const match of text.matchAll(wordPattern(term))) {
      const at = passages[lastAtOrBefore(starts, match.index)]!.start;
      tenths.add(Math.min(9, Math.floor(((at - first) / span) * 10)));
    }
    return tenths.size >= SPREAD_TENTHS;
  });
}

/**
 * Where a text has a word that `terms` turns into `term`: the word itself, or for a term of the full stem length any
 * word it begins.
 */
function wordPattern(term: string): RegExp {
  const escaped = term.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const end = [...term].length < STEM_LENGTH ? "(?![\\p{L}\\p{M}\\p{N}])" : "";
  return new RegExp(`(?<![\\p{L}\\p{M}\\p{N}])${escaped}${end}`, "gu");
}

/** @returns the index of the last of the ascending `values` that is at most `target` (0 when none is) */
function lastAtOrBefore(values: readonly number[], target: number): number {
  let low = 0;
  let high = values.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (values[mid]! <= target) low = mid;
    else high = mid - 1;
  }
  return low;
}
