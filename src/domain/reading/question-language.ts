/** @module Tells which of the five response languages a short question is written in, when it can. */
import type { Language } from "../chat-request.ts";

/**
 * Words that mark a short Latin-script question as English, Spanish or
 * Portuguese. Questions are far too short for trigram profiles (franc wants
 * 80 letters or more), but their function and question words tell the three
 * apart; words the languages share (`que`, `para`, `por`) are left out.
 */
const CUES: Record<"en" | "es" | "pt", Set<string>> = {
  en: words(
    "the is are was were what how does do did of and to in about which who why when where you it this that with " +
      "long much many say says said think thinks there they he she his her video talk talks mention mentions tell " +
      "can could would should be has have after before",
  ),
  es: words(
    "el la los las es qué cómo cuánto cuánta cuántos cuántas dónde cuándo quién cuál del y una un dice piensa " +
      "habla hay lo al están son fue opina tiene tienen sus pero muy también después cuenta",
  ),
  pt: words(
    "o os as é quanto quanta quantos quantas onde quando quem qual do da dos das um uma e diz acha fala há na " +
      "estão são foi tem têm seus mas muito também depois conta não",
  ),
};

/** Share of a question's letters in Devanagari or Cyrillic that makes it Hindi or Russian. */
const NON_LATIN_SHARE = 0.3;

/** Letters only one of the three uses. */
const LETTERS: Record<"es" | "pt", RegExp> = { es: /[ñ¿¡]/u, pt: /[ãõçêôà]/u };

/**
 * The language a question is written in, when it can be told: Hindi and
 * Russian by script (Devanagari, Cyrillic), English, Spanish and Portuguese
 * by the question words and letters they do not share. Leans towards
 * "unknown": a tie or no cue at all gives undefined.
 *
 * @param text the caller's prompt
 * @returns one of the five response languages, or undefined when unsure
 */
export function questionLanguage(text: string): Language | undefined {
  const letters = [...text.normalize("NFC")].filter((c) => /[\p{L}\p{M}]/u.test(c));
  if (letters.length === 0) return undefined;
  const share = (script: RegExp) => letters.filter((c) => script.test(c)).length / letters.length;
  // Brand and product names are in Latin letters whatever the question's language.
  if (share(/\p{Script=Devanagari}/u) >= NON_LATIN_SHARE) return "hi";
  if (share(/\p{Script=Cyrillic}/u) >= NON_LATIN_SHARE) return "ru";
  if (share(/\p{Script=Latin}/u) < 0.5) return undefined;
  return latinLanguage(text.normalize("NFC").toLowerCase());
}

function latinLanguage(text: string): Language | undefined {
  const tokens = text.match(/[\p{L}\p{M}]+/gu) ?? [];
  const score = { en: 0, es: 0, pt: 0 };
  for (const token of tokens) {
    for (const language of ["en", "es", "pt"] as const) if (CUES[language].has(token)) score[language] += 1;
  }
  if (LETTERS.es.test(text)) score.es += 2;
  if (LETTERS.pt.test(text)) score.pt += 2;
  const ranked = (Object.entries(score) as ["en" | "es" | "pt", number][]).sort((a, b) => b[1] - a[1]);
  const [best, second] = ranked;
  return best![1] > 0 && best![1] > second![1] ? best![0] : undefined;
}

function words(list: string): Set<string> {
  return new Set(list.split(" "));
}
