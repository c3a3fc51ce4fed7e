/** @module The few sentences the offline engine writes itself, in every response language. */
import type { Language } from "../../domain/chat-request.ts";

/** The few sentences the offline engine writes itself, in every response language. */
export interface Phrases {
  summary: string;
  question: string;
  noMatch: string;
  /** Said when no transcript in the response language could be had. */
  otherLanguage: string;
}

export const PHRASES: Record<Language, Phrases> = {
  en: {
    summary: "Key moments of the video, picked from its transcript:",
    question: "Passages of the video that best match your question:",
    noMatch: "The video does not seem to talk about this. Its key moments:",
    otherLanguage: "No transcript in English was available, so the passages are quoted in the language of the video.",
  },
  es: {
    summary: "Momentos clave del vídeo, tomados de su transcripción:",
    question: "Fragmentos del vídeo que mejor responden a tu pregunta:",
    noMatch: "El vídeo no parece hablar de esto. Sus momentos clave:",
    otherLanguage: "No había transcripción en español, así que los fragmentos se citan en el idioma del vídeo.",
  },
  pt: {
    summary: "Momentos principais do vídeo, tirados da sua transcrição:",
    question: "Trechos do vídeo que melhor respondem à sua pergunta:",
    noMatch: "O vídeo não parece falar sobre isso. Seus momentos principais:",
    otherLanguage: "Não havia transcrição em português, então os trechos são citados no idioma do vídeo.",
  },
  ru: {
    summary: "Ключевые моменты видео, взятые из его расшифровки:",
    question: "Фрагменты видео, которые лучше всего отвечают на ваш вопрос:",
    noMatch: "Похоже, в видео об этом не говорится. Его ключевые моменты:",
    otherLanguage: "Расшифровки на русском языке нет, поэтому фрагменты приведены на языке видео.",
  },
  hi: {
    summary: "वीडियो के मुख्य अंश, उसके ट्रांसक्रिप्ट से लिए गए:",
    question: "वीडियो के वे अंश जो आपके प्रश्न से सबसे अधिक मेल खाते हैं:",
    noMatch: "ऐसा लगता है कि वीडियो में इस बारे में बात नहीं की गई है। इसके मुख्य अंश:",
    otherLanguage: "हिंदी में कोई ट्रांसक्रिप्ट उपलब्ध नहीं था, इसलिए अंश वीडियो की भाषा में दिए गए हैं।",
  },
};
