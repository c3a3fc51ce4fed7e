/** @module Splits text into index terms in any script: normalised, stop words dropped, stemmed. */
import type { Language } from "../chat-request.ts";
import { SCRIPTS } from "../languages/language-facts.ts";
import { languageFacts, LANGUAGES } from "../languages/languages.ts";

/**
 * Words of a text as index terms, in any script: lower case, NFKC, letters
 * with their combining marks (Devanagari vowel signs are marks) and digits.
 * The commonest function words of every answer language are dropped,
 * as are one-letter words.
 *
 * With `language` (the text's, when known: a transcript's track), each word in that language's script is cut by its
 * Snowball stemmer ("painted" and "paint", "ферма" and "ферме" meet). Any other word is cut to its first six code
 * points: a crude, language-agnostic stemmer that joins "keyboard"/"keyboards", "resumen"/"resumir",
 * "планшет"/"планшета" at the price of some false friends.
 *
 * @param text any text
 * @param language the text's language, when known
 * @returns its terms, in order, repeats kept
 */
export function terms(text: string, language?: Language): string[] {
  return termReader(language)(text);
}

/**
 * `terms` for many texts of one language, each distinct word stemmed once (a transcript says most words many times).
 *
 * @param language the texts' language, when known
 * @returns a function from a text to its terms
 */
export function termReader(language?: Language): (text: string) => string[] {
  const stem = language === undefined ? undefined : STEMMERS.get(language);
  const seen = new Map<string, string | null>();
  const termOf = (word: string): string | null => {
    const chars = [...word];
    if ((chars.length < 2 && !/\p{N}/u.test(word)) || STOPWORDS.has(word)) return null;
    if (stem && stem.script.test(word)) return stem.cut(word);
    return chars.length > STEM_LENGTH ? chars.slice(0, STEM_LENGTH).join("") : word;
  };
  return (text) => {
    const out: string[] = [];
    for (const word of text.normalize("NFKC").toLowerCase().match(/[\p{L}\p{M}\p{N}]+/gu) ?? []) {
      let term = seen.get(word);
      if (term === undefined) {
        term = termOf(word);
        // Bounded: a crafted transcript of words said once must not grow it past a transcript's worth.
        if (seen.size < 50_000) seen.set(word, term);
      }
      if (term !== null) out.push(term);
    }
    return out;
  };
}

/** Code points a term keeps of a longer word when no stemmer of its language applies. */
export const STEM_LENGTH = 6;

/** Every answer language's stop words: a text's language is not known, and the lists hardly overlap. */
const STOPWORDS = new Set(LANGUAGES.flatMap((language) => languageFacts(language).stopWords.split(" ")));

/** Each language's stemmer and the script of the words it applies to. */
const STEMMERS = new Map(
  LANGUAGES.map((language) => {
    const facts = languageFacts(language);
    return [language, { script: SCRIPTS[facts.script], cut: facts.stem }] as const;
  }),
);
