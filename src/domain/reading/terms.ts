/** @module Splits text into index terms in any script: normalised, stop words dropped, crudely stemmed. */
import { languageFacts, LANGUAGES } from "../languages/languages.ts";

/**
 * Words of a text as index terms, in any script: lower case, NFKC, letters
 * with their combining marks (Devanagari vowel signs are marks) and digits.
 * The commonest function words of every answer language are dropped,
 * as are one-letter words. Each term is cut to its first six code points: a
 * crude, language-agnostic stemmer that joins "keyboard"/"keyboards",
 * "resumen"/"resumir", "планшет"/"планшета" at the price of some false
 * friends.
 *
 * @param text any text
 * @returns its terms, in order, repeats kept
 */
export function terms(text: string): string[] {
  const words = text.normalize("NFKC").toLowerCase().match(/[\p{L}\p{M}\p{N}]+/gu) ?? [];
  const out: string[] = [];
  for (const word of words) {
    const chars = [...word];
    if ((chars.length < 2 && !/\p{N}/u.test(word)) || STOPWORDS.has(word)) continue;
    out.push(chars.length > STEM_LENGTH ? chars.slice(0, STEM_LENGTH).join("") : word);
  }
  return out;
}

/** Code points a term keeps of a longer word. */
export const STEM_LENGTH = 6;

/** Every answer language's stop words: a text's language is not known, and the lists hardly overlap. */
const STOPWORDS = new Set(LANGUAGES.flatMap((language) => languageFacts(language).stopWords.split(" ")));
