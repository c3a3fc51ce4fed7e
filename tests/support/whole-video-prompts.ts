/** @module Whole-video and detail prompts for the end-to-end test and the bench, written apart from the corpus. */
import type { Language } from "../../src/domain/chat-request.ts";

/** A prompt and the answer language it is sent with. */
export interface PromptCase {
  prompt: string;
  language: Language;
}

/**
 * Whole-video requests in the five languages, written apart from the intent
 * corpus (tests/domain/reading/intent-corpus) and never tuned against it:
 * different words and shapes for the same wishes, and two that ask for the
 * answer in another language.
 */
export const WHOLE_PROMPTS: readonly PromptCase[] = [
  { prompt: "Can you give me a rundown of everything covered here?", language: "en" },
  { prompt: "Break the video into sections and give each one a timestamp", language: "en" },
  { prompt: "What are the three biggest lessons from this?", language: "en" },
  { prompt: "Give me a five-bullet summary I can paste into Slack", language: "en" },
  { prompt: "Hazme una síntesis del vídeo en tres párrafos", language: "es" },
  { prompt: "¿Cuáles son todos los temas que se tratan, en orden?", language: "es" },
  { prompt: "Me dá um resumão do vídeo", language: "pt" },
  { prompt: "Quais são os principais argumentos apresentados?", language: "pt" },
  { prompt: "Выдели основные тезисы видео", language: "ru" },
  { prompt: "Опиши структуру ролика по разделам с таймкодами", language: "ru" },
  { prompt: "इस वीडियो की मुख्य बातें पाँच पॉइंट में लिखो", language: "hi" },
  { prompt: "video ke saare important points ek list mein do", language: "hi" },
  { prompt: "Hazme chapters con los tiempos, en hindi", language: "hi" },
  { prompt: "Summarize the whole thing for me in Portuguese", language: "pt" },
];

/** Detail questions whose words are those of the sentence planted in the generated transcript (`NEEDLE`). */
export const DETAIL_PROMPTS: readonly PromptCase[] = [
  { prompt: "What is the secret ingredient of the recipe?", language: "en" },
  { prompt: "¿Qué dice de la paprika de Extremadura?", language: "es" },
];
