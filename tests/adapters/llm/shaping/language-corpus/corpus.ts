/** @module The labelled corpus of hand-written answers for the language check, and its types. */
/**
 * A labelled corpus for the language check: answers written by hand, as an
 * LLM would answer questions about videos (reviews, lectures, cooking, sport,
 * tech), in both output formats, some short, some full of English names and
 * technical terms, with timestamps. Each right-language file holds answers
 * that must pass when asked in its language and be flagged when asked in any
 * other; wrong.ts adds answers that are wrong in ways the others do not cover
 * (Hindi in Latin letters, mixed answers).
 */
import type { Language } from "../../../../../src/domain/chat-request.ts";
import en from "./en.ts";
import es from "./es.ts";
import hi from "./hi.ts";
import pt from "./pt.ts";
import ru from "./ru.ts";
import wrong from "./wrong.ts";

export type Format = "text" | "markdown";
/** One answer: its output format and its text. */
export type Entry = readonly [Format, string];
/** An answer labelled with the language it was asked in and whether it is plainly wrong. */
export interface Case {
  asked: Language;
  written: string;
  format: Format;
  text: string;
  wrong: boolean;
}
/** An answer that is wrong for the language it was asked in. */
export interface WrongEntry {
  asked: Language;
  written: string;
  format: Format;
  text: string;
}

export const RIGHT: Record<Language, readonly Entry[]> = { en, es, pt, ru, hi };

/** Every right-language answer asked in its own language (right) and in each other one (wrong), plus wrong.ts. */
export function corpusCases(): Case[] {
  const cases: Case[] = [];
  for (const [written, entries] of Object.entries(RIGHT) as [Language, readonly Entry[]][]) {
    for (const [format, text] of entries) {
      for (const asked of Object.keys(RIGHT) as Language[]) {
        cases.push({ asked, written, format, text, wrong: asked !== written });
      }
    }
  }
  for (const entry of wrong) cases.push({ ...entry, wrong: true });
  return cases;
}

/** Letters of the answer's own prose: timestamps, URLs, inline code and quotations left out, as the check does. */
export function letterCount(text: string): number {
  const prose = text.replace(/\[[\d:]+\]|https?:\/\/\S+|`[^`]*`|"[^"\n]*"|“[^”\n]*”|«[^»\n]*»|„[^“”\n]*[“”]/g, " ");
  return (prose.match(/[\p{L}\p{M}]/gu) ?? []).length;
}
