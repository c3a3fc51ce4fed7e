/** @module Tells which answer language a short question is written in, when it can. */
import type { Language } from "../chat-request.ts";
import { type Script, SCRIPTS } from "../languages/language-facts.ts";
import { languageFacts, LANGUAGES } from "../languages/languages.ts";

/** Share of a question's letters in a script other than Latin that makes the question that script's. */
const NON_LATIN_SHARE = 0.3;
/** Share of Latin letters a question needs to be read as a Latin-script one. */
const LATIN_SHARE = 0.5;

/** The answer languages by script, the scripts other than Latin first (brand names are in Latin letters). */
const BY_SCRIPT: [Script, Language[]][] = (() => {
  const scripts = [...new Set(LANGUAGES.map((language) => languageFacts(language).script))];
  scripts.sort((a, b) => Number(a === "latin") - Number(b === "latin"));
  return scripts.map((script) => [script, LANGUAGES.filter((language) => languageFacts(language).script === script)]);
})();

/** Each language's question words, as a set. Questions are far too short for trigram profiles (80 letters or more). */
const CUE_WORDS = new Map(
  LANGUAGES.map((language) => [language, new Set(languageFacts(language).questionCues?.words.split(" "))]),
);

/**
 * The language a question is written in, when it can be told: first by
 * script (Hindi by Devanagari, Russian by Cyrillic, from 30 % of its letters,
 * since names are in Latin letters whatever the language), then, among the
 * languages of one script (English, Spanish, Portuguese), by the question
 * words and letters each uses and the others do not. Leans towards
 * "unknown": a tie or no cue at all gives undefined.
 *
 * @param text the caller's prompt
 * @returns an answer language, or undefined when unsure
 */
export function questionLanguage(text: string): Language | undefined {
  const letters = [...text.normalize("NFC")].filter((c) => /[\p{L}\p{M}]/u.test(c));
  if (letters.length === 0) return undefined;
  const share = (script: Script) => letters.filter((c) => SCRIPTS[script].test(c)).length / letters.length;
  for (const [script, languages] of BY_SCRIPT) {
    if (share(script) < (script === "latin" ? LATIN_SHARE : NON_LATIN_SHARE)) continue;
    return languages.length === 1 ? languages[0] : byCues(text.normalize("NFC").toLowerCase(), languages);
  }
  return undefined;
}

/** The language among those of one script whose cues the question has most of; undefined on a tie or none. */
function byCues(text: string, languages: readonly Language[]): Language | undefined {
  const tokens = text.match(/[\p{L}\p{M}]+/gu) ?? [];
  const scored = languages.map((language) => {
    const words = CUE_WORDS.get(language)!;
    const letters = languageFacts(language).questionCues?.letters;
    const score = tokens.filter((token) => words.has(token)).length + (letters?.test(text) ? 2 : 0);
    return { language, score };
  });
  const [best, second] = scored.sort((a, b) => b.score - a.score);
  return best!.score > 0 && best!.score > (second?.score ?? 0) ? best!.language : undefined;
}
