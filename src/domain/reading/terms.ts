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
 * With `queries`, the reader is for ranking on those texts alone: a word is stemmed only when its first letters are
 * those of a query's term (a stem starts with its word's first letters, accents aside), and any other word gets the
 * cheap six-point cut. Its term then matches no query term either way, so the ranking is the same, for a fraction of
 * the stemmer's work. A reader stems at most {@link MAX_STEMMED} distinct words, the queries' first: past that (only a
 * crafted transcript has so many), words get the cut, and only their other forms than the queries' miss. Only stems
 * are kept: the cut is cheaper to make again than to look up, on a transcript of words said once.
 *
 * @param language the texts' language, when known
 * @param queries the texts whose terms alone are looked for
 * @returns a function from a text to its terms
 */
export function termReader(language?: Language, queries?: readonly string[]): (text: string) => string[] {
  const stem = language === undefined ? undefined : STEMMERS.get(language);
  const stemmed = new Map<string, string>();
  let stems = (_word: string) => true;
  const termOf = (word: string): string | null => {
    const chars = [...word];
    if ((chars.length < 2 && !/\p{N}/u.test(word)) || STOPWORDS.has(word)) return null;
    if (stem) {
      const known = stemmed.get(word);
      if (known !== undefined) return known;
      if (stemmed.size < MAX_STEMMED && stems(word) && stem.script.test(word)) {
        const term = stem.cut(word);
        stemmed.set(word, term);
        return term;
      }
    }
    return chars.length > STEM_LENGTH ? chars.slice(0, STEM_LENGTH).join("") : word;
  };
  const read = (text: string) => {
    const out: string[] = [];
    for (const word of text.normalize("NFKC").toLowerCase().match(/[\p{L}\p{M}\p{N}]+/gu) ?? []) {
      const term = termOf(word);
      if (term !== null) out.push(term);
    }
    return out;
  };
  if (stem && queries) {
    // The queries' own words are read first, kept with their stems, and open the stemmer to words like them.
    const keys = new Set(queries.flatMap((query) => read(query)).map((term) => head(term)));
    stems = (word) => {
      const folded = head(word);
      for (let length = 1; length <= folded.length; length++) if (keys.has(folded.slice(0, length))) return true;
      return false;
    };
  }
  return read;
}

/** Distinct words one reader stems: only words opening like a query term count, a few hundred in a long talk. */
export const MAX_STEMMED = 3_000;

/** @returns a word's first three letters, marks dropped (Snowball drops accents, Devanagari vowel signs vary) */
function head(word: string): string {
  const start = word.slice(0, 4);
  // Most words open in plain ASCII letters: nothing to drop.
  if (/^[a-z0-9]*$/.test(start)) return start.slice(0, 3);
  return start.normalize("NFD").replace(/\p{M}+/gu, "").slice(0, 3);
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
