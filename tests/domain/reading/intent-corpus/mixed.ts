/** @module Prompts of the intent corpus asked for an answer in another language, or mixing two languages. */
import type { MixedEntry } from "./corpus.ts";

/**
 * A prompt in one language asking for the answer in another (the `language` field, or words in the prompt), and
 * prompts that mix two languages in one sentence, as bilingual people write them. Each names the language it is
 * mostly written in, then the answer language asked.
 */
export default [
  ["whole", "Resume este video", "es", "hi"],
  ["whole", "Summarize this video in Russian", "en", "ru"],
  ["whole", "¿De qué trata? Responde en portugués", "es", "pt"],
  ["whole", "Перескажи видео на английском", "ru", "en"],
  ["whole", "वीडियो का सारांश अंग्रेज़ी में दो", "hi", "en"],
  ["whole", "Dame los key points", "es", "es"],
  ["whole", "Faz um summary rápido", "pt", "pt"],
  ["whole", "summary please, en español", "en", "es"],
  ["whole", "video ka summary Spanish mein do", "hi", "es"],
  ["whole", "Give me the main points, in Hindi", "en", "hi"],
  ["whole", "main points", "en", "hi"],
  ["whole", "Lista de todos los lugares, answer in English", "es", "en"],
  ["whole", "Quais os pontos principais? (em inglês)", "pt", "en"],
  ["whole", "Основные мысли, por favor", "ru", "es"],
  ["whole", "Tell me about this video", "en", "pt"],
  ["whole", "Haz capítulos con timestamps", "es", "ru"],
  ["whole", "Сделай summary по главам", "ru", "ru"],
  ["whole", "इस video के main points बताओ", "hi", "hi"],
  ["whole", "¿De qué va el video? en ruso porfa", "es", "ru"],
  ["whole", "Resumo em hindi, por favor", "pt", "hi"],
  ["whole", "Key takeaways на русском", "en", "ru"],
  ["whole", "tl;dr en español", "en", "es"],
  ["whole", "Кратко перескажи, in English please", "ru", "en"],
  ["whole", "इसका सार हिंदी में बताओ", "hi", "hi"],
  ["detail", "¿Qué opina del teclado? contesta en hindi", "es", "hi"],
  ["detail", "How long does the battery last? (answer in Portuguese)", "en", "pt"],
  ["detail", "Сколько стоит? Ответь по-испански", "ru", "es"],
  ["detail", "कैमरा कैसा है? in English please", "hi", "en"],
  ["detail", "o que ele acha da câmera? responde em russo", "pt", "ru"],
  ["detail", "Tell me about the battery in Russian", "en", "ru"],
  ["detail", "¿Cuánto cuesta el hotel? answer in English", "es", "en"],
  ["detail", "what camera does he use, en español", "en", "es"],
  ["detail", "battery backup kitna hai, hindi mein batao", "hi", "hi"],
  ["detail", "quando ele fala do preço? in English", "pt", "en"],
  ["detail", "Когда он говорит о цене? на хинди", "ru", "hi"],
  ["detail", "Who is the guest? responde en español", "en", "es"],
  ["detail", "बैटरी कितने घंटे चलती है? answer in Russian", "hi", "ru"],
  ["detail", "¿Dónde se alojaron? em português", "es", "pt"],
  ["detail", "Что он говорит про screen?", "ru", "ru"],
  ["detail", "qual o preço do tablet? in hindi", "pt", "hi"],
] satisfies MixedEntry[];
