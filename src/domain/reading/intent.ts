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
  // One scan of the passages' words, each word looked up as `terms` would cut it.
  const tenths = new Map(asked.map((term) => [term, new Set<number>()]));
  for (const passage of passages) {
    const tenth = Math.min(9, Math.floor(((passage.start - first) / span) * 10));
    for (const word of passage.text.normalize("NFKC").toLowerCase().match(WORD) ?? []) {
      tenths.get(word)?.add(tenth);
      if (word.length > STEM_LENGTH) tenths.get(stemOf(word))?.add(tenth);
    }
  }
  return asked.every((term) => tenths.get(term)!.size >= SPREAD_TENTHS);
}

/** A word as `terms` reads it: letters with their marks, and digits. */
const WORD = /[\p{L}\p{M}\p{N}]+/gu;

/** @returns the term `terms` makes of a word of more than {@link STEM_LENGTH} code units: its first code points */
function stemOf(word: string): string {
  let stem = "";
  let count = 0;
  for (const char of word) {
    if (count++ === STEM_LENGTH) break;
    stem += char;
  }
  return stem;
}
