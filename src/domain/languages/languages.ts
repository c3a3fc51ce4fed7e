/** @module The language table: every answer language, by code, with what the service needs to answer in it. */
import { ENGLISH } from "./en.ts";
import { SPANISH } from "./es.ts";
import { HINDI } from "./hi.ts";
import type { LanguageFacts } from "./language-facts.ts";
import { PORTUGUESE } from "./pt.ts";
import { RUSSIAN } from "./ru.ts";

/**
 * The answer languages by ISO 639-1 code, in the order the API lists them. A new language is one file beside these
 * and one line here; `bun test tests/domain/languages` then names what the rest of the service still lacks for it.
 */
export const LANGUAGE_TABLE = {
  en: ENGLISH,
  hi: HINDI,
  es: SPANISH,
  pt: PORTUGUESE,
  ru: RUSSIAN,
} as const satisfies Record<string, LanguageFacts>;

/** An answer language's code. */
export type Language = keyof typeof LANGUAGE_TABLE;

/** The answer languages' codes, in the table's order (never empty: the table has English). */
export const LANGUAGES: readonly [Language, ...Language[]] = Object.keys(LANGUAGE_TABLE) as [Language, ...Language[]];

/** @returns the answer language a code such as `pt-BR` names (its primary subtag), or undefined for another */
export function answerLanguageOf(code: string): Language | undefined {
  const primary = code.toLowerCase().split(/[-_]/)[0] ?? "";
  return (LANGUAGES as readonly string[]).includes(primary) ? primary as Language : undefined;
}

/** @returns the table's entry for a language */
export function languageFacts(language: Language): LanguageFacts {
  return LANGUAGE_TABLE[language];
}
