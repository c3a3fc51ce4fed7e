/** @module Tells whether an answer is plainly in another language than the one asked for. */
import type { Language } from "../../../domain/chat-request.ts";
import { SCRIPTS } from "../../../domain/languages/language-facts.ts";
import { languageFacts, LANGUAGES } from "../../../domain/languages/languages.ts";

/** Letters needed before a script share means anything. */
const MIN_SCRIPT_LETTERS = 30;
/** Letters needed before the detector is trusted to tell Latin-script languages apart. */
export const MIN_DETECTOR_LETTERS = 80;
/** Below this share of the wanted script's letters in common words, the answer is in another script. */
const MIN_SCRIPT_SHARE = 0.5;
/**
 * The wanted language is flagged only when it scores below this share of the
 * detector's best guess. Chosen by bench/language-detectors.ts: tinyld light
 * catches every wrong answer and flags no right one from 0.9 to 1,
 * and starts missing at 0.8.
 */
export const DETECTOR_RATIO = 0.95;
/** Other Latin-script languages the detector weighs an answer against, besides the answer languages (ISO 639-1). */
const OTHER_LATIN = ["fr", "it", "de", "nl", "ca", "ro", "pl", "tr", "id"];
/** The Latin-script languages the detector weighs against each other: every Latin-script answer language, and those. */
export const LATIN_CANDIDATES = [
  ...new Set([...LANGUAGES.filter((language) => languageFacts(language).script === "latin"), ...OTHER_LATIN]),
];
const WORD = /[\p{L}\p{M}][\p{L}\p{M}\p{N}'’-]*/gu;
/** Names and codes (capitalised, or with digits) say nothing about the language around them. */
const NAME = /^\p{Lu}|\p{N}/u;
/** Spans that say nothing about the answer's language: timestamps, URLs, inline code, quotations. */
const IGNORED = /\[[\d:]+\]|https?:\/\/\S+|`[^`]*`|"[^"\n]*"|“[^”\n]*”|«[^»\n]*»|„[^“”\n]*[“”]/g;

const LETTERS = /[\p{L}\p{M}]/gu;

function letters(words: string[]): string[] {
  return words.join("").match(LETTERS) ?? [];
}

/**
 * The words to judge and the answer's letter count. Common words (names and
 * codes left out) when they have enough letters; otherwise, in an answer
 * long enough for the detector, every word (shouted or Title Case text is
 * still prose); otherwise none.
 */
function judgedWords(text: string): { words: string[]; letterCount: number } {
  const all = text.normalize("NFC").replace(IGNORED, " ").match(WORD) ?? [];
  const letterCount = letters(all).length;
  const common = all.filter((word) => !NAME.test(word));
  if (letters(common).length >= MIN_SCRIPT_LETTERS) return { words: common, letterCount };
  return { words: letterCount >= MIN_DETECTOR_LETTERS ? all : [], letterCount };
}

/**
 * The script stage of the check: true when the answer is plainly in another
 * script than the language's (the language table's), false when it is right
 * or too short to judge, or, for Latin-script answers (English, Spanish,
 * Portuguese) of `detectorLetters` letters or more, the Latin-script words a
 * detector must judge. Shares and the detector see
 * common words only, so an answer full of product names is judged by the
 * words around them.
 */
export function scriptVerdict(
  text: string,
  language: Language,
  detectorLetters = MIN_DETECTOR_LETTERS,
): boolean | string {
  const { words, letterCount } = judgedWords(text);
  const judged = letters(words);
  if (judged.length < MIN_SCRIPT_LETTERS) return false;
  const script = languageFacts(language).script;
  const share = judged.filter((c) => SCRIPTS[script].test(c)).length / judged.length;
  if (share < MIN_SCRIPT_SHARE) return true;
  if (script !== "latin" || letterCount < detectorLetters) return false;
  return words.filter((word) => SCRIPTS.latin.test(word)).join(" ");
}

/**
 * Whether an answer is plainly in another language than the one asked for,
 * leaning towards passing. Timestamps, URLs, inline code and quotations are
 * ignored.
 *
 * Names and codes (capitalised words, words with digits) are left out while
 * 30 letters of common words remain; a longer answer without them (shouted,
 * Title Case) is judged on all its words.
 *
 * - Under 30 letters to judge: passes, too short to tell.
 * - Every language: flagged when under half the judged letters are in its
 *   script (Hindi in Devanagari, Russian in Cyrillic: English or Hinglish
 *   for them is flagged so).
 * - Latin-script languages (English, Spanish, Portuguese): from 80 letters
 *   on, also when tinyld's best guess among `LATIN_CANDIDATES` (twelve
 *   Latin-script languages today) is another one and the wanted one scores
 *   below 0.95 of it.
 *   Between 30 and 79 letters (a streamed first part) only the script is
 *   judged: Spanish for Portuguese passes there, Russian for Spanish does not.
 *
 * @param text the answer, or a first part of it
 * @param language the language asked for
 * @returns true only when the text is confidently in another language
 */
export async function isWrongLanguage(text: string, language: Language): Promise<boolean> {
  const verdict = scriptVerdict(text, language);
  if (typeof verdict === "boolean") return verdict;
  const { detectAll } = await loadDetector();
  const scores = detectAll(verdict, { only: LATIN_CANDIDATES });
  const best = scores[0];
  if (!best || best.lang === language || best.accuracy <= 0) return false;
  const score = scores.find(({ lang }) => lang === language)?.accuracy ?? 0;
  return score < DETECTOR_RATIO * best.accuracy;
}

let detector: Promise<typeof import("tinyld/light")> | undefined;

/** tinyld's profiles load on the first check, keeping them out of the binary's start-up. */
function loadDetector(): Promise<typeof import("tinyld/light")> {
  detector ??= import("tinyld/light");
  return detector;
}
