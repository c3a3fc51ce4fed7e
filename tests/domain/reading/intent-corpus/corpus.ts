/** @module The labelled corpus of prompts for the intent reading, and its types. */
/**
 * A labelled corpus for the intent reading (`readIntent`): prompts written
 * by hand the way people type them under a video (lower case, no question
 * mark, abbreviations, Hindi in Latin letters, a word of English in a Spanish
 * sentence), each labelled with how it should be read: `whole` (about the
 * whole video: summaries, key points, takeaways, outlines, chapters and
 * timestamps, "what is it about", lists of everything of a kind, the overall
 * argument or structure; a summary of one topic too) or `detail` (about a
 * moment or one thing). The detail prompts include the traps: words of the
 * whole-video vocabulary used for a detail ("the main character", "all day",
 * "the chapter about pricing", "what is he talking about at 5:40").
 *
 * The first batch of each file was written before the lexicon, which was then
 * made to read it. Each later batch was written afterwards and first measured
 * unseen, then added and the lexicon widened for the shapes it missed:
 * 33 of 46 (72 %), 32 of 42 (76 %), then 49 of 54 (91 %) read right on first
 * sight; every miss was a whole-video prompt read as a detail (never the
 * reverse), which costs only what any question costs. The end-to-end test of
 * whole-video prompts uses a set written apart (tests/support/whole-video-prompts.ts).
 */
import type { Language } from "../../../../src/domain/chat-request.ts";
import en from "./en.ts";
import es from "./es.ts";
import hi from "./hi.ts";
import mixed from "./mixed.ts";
import pt from "./pt.ts";
import ru from "./ru.ts";

export type Kind = "whole" | "detail";
/** One prompt of a language's file and how it should be read; its answer is asked in the same language. */
export type Entry = readonly [Kind, string];
/** One prompt, the language it is mostly written in, and the answer language asked. */
export type MixedEntry = readonly [Kind, string, Language, Language];

/** A labelled prompt. */
export interface Case {
  kind: Kind;
  prompt: string;
  /** The language the prompt is (mostly) written in. */
  written: Language;
  /** The answer language asked for (the request's `language`). */
  answer: Language;
}

/** @returns every labelled prompt of the corpus */
export function corpusCases(): Case[] {
  const files: Record<Language, readonly Entry[]> = { en, es, pt, ru, hi };
  const own = Object.entries(files).flatMap(([language, entries]) =>
    entries.map(([kind, prompt]) => ({ kind, prompt, written: language as Language, answer: language as Language }))
  );
  const other = mixed.map(([kind, prompt, written, answer]) => ({ kind, prompt, written, answer }));
  return [...own, ...other];
}
