/** @module End-to-end tests of the offline engine (no `GROQ_API_KEY`) in every response language and format. */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { VIDEOS, watchUrl } from "../support/fixtures.ts";
import { captionXml } from "../support/long-transcript.ts";
import { type LlmHarness, startLlmHarness } from "./llm-harness.ts";

/** The same short review in each response language; the battery sentence answers the question. */
const REVIEWS: Record<string, { sentences: string[]; intro: string; question: string; battery: string }> = {
  en: {
    sentences: [
      "Today we review the new tablet from top to bottom.",
      "The tablet screen is bright and the tablet feels light.",
      "The battery lasts seven hours of video playback.",
      "The keyboard cover is comfortable for typing.",
      "My dog barked all morning, sorry about the noise.",
      "The tablet price is fair and the tablet screen makes it worth it.",
    ],
    intro: "Key moments of the video",
    question: "How many hours does the battery last?",
    battery: "The battery lasts seven hours",
  },
  es: {
    sentences: [
      "Hoy analizamos la nueva tableta de arriba abajo.",
      "La pantalla de la tableta es brillante y la tableta es ligera.",
      "La batería dura siete horas de vídeo.",
      "La funda con teclado es cómoda para escribir.",
      "Mi perro ladró toda la mañana, perdón por el ruido.",
      "El precio de la tableta es justo y la pantalla de la tableta lo vale.",
    ],
    intro: "Momentos clave del vídeo",
    question: "¿Cuántas horas dura la batería?",
    battery: "La batería dura siete horas",
  },
  pt: {
    sentences: [
      "Hoje analisamos o novo tablet de cima a baixo.",
      "A tela do tablet é brilhante e o tablet é leve.",
      "A bateria dura sete horas de vídeo.",
      "A capa com teclado é confortável para digitar.",
      "Meu cachorro latiu a manhã toda, desculpe o barulho.",
      "O preço do tablet é justo e a tela do tablet vale a pena.",
    ],
    intro: "Momentos principais do vídeo",
    question: "Quantas horas dura a bateria?",
    battery: "A bateria dura sete horas",
  },
  ru: {
    sentences: [
      "Сегодня мы подробно рассматриваем новый планшет.",
      "Экран планшета яркий, а сам планшет лёгкий.",
      "Батарея держит семь часов видео.",
      "Чехол с клавиатурой удобен для набора.",
      "Моя собака лаяла всё утро, извините за шум.",
      "Цена планшета честная, и экран планшета того стоит.",
    ],
    intro: "Ключевые моменты видео",
    question: "Сколько часов держит батарея?",
    battery: "Батарея держит семь часов",
  },
  hi: {
    sentences: [
      "आज हम नए टैबलेट की पूरी समीक्षा करते हैं।",
      "टैबलेट की स्क्रीन चमकदार है और टैबलेट हल्का है।",
      "बैटरी सात घंटे वीडियो चलाती है।",
      "कीबोर्ड कवर टाइप करने के लिए आरामदायक है।",
      "मेरा कुत्ता सुबह भर भौंकता रहा, शोर के लिए माफ़ी।",
      "टैबलेट की कीमत सही है और टैबलेट की स्क्रीन इसके लायक है।",
    ],
    intro: "वीडियो के मुख्य अंश",
    question: "बैटरी कितने घंटे चलती है?",
    battery: "बैटरी सात घंटे",
  },
};

let h: LlmHarness;
beforeAll(async () => {
  h = await startLlmHarness({ ANSWER_CACHE_TTL_MS: "0", TRANSCRIPT_CACHE_TTL_MS: "0" }, { offline: true });
});
afterAll(() => h?.close());
beforeEach(() => {
  h.youtube.reset();
  h.llm.reset();
});

describe("POST /chat with the offline engine (no GROQ_API_KEY)", () => {
  for (const [language, review] of Object.entries(REVIEWS)) {
    for (const format of ["text", "markdown"] as const) {
      test(`summarises and answers in ${language} as ${format}, from the ${language} transcript, with timestamps`, async () => {
        h.youtube.setCaption(
          VIDEOS.normal.id,
          captionXml(review.sentences.map((text, i) => ({ start: i * 10, duration: 9, text }))),
        );
        const summary = await (await h.chat({ url: watchUrl("normal"), language, output_format: format })).json();
        expect(summary.output).toStartWith(review.intro);
        // Short sentences join their neighbours into one passage, cited at the passage's first cue.
        expect(summary.output).toMatch(new RegExp(`\\[0:[01]0\\] [^\\n]*${review.sentences[1]}`));
        expect(summary.output).not.toContain(review.sentences[4]!);
        const answer =
          await (await h.chat({ url: watchUrl("normal"), language, output_format: format, prompt: review.question }))
            .json();
        expect(answer.output).toMatch(new RegExp(`\\[0:20\\] ${review.battery}`));
        for (const output of [summary.output as string, answer.output as string]) {
          if (format === "markdown") expect(output).toMatch(/^- \[\d+:\d\d\] /m);
          else expect(output).not.toMatch(/^- |\*\*|`|^#/m);
        }
        expect(h.llm.calls).toHaveLength(0);
      });
    }
  }

  test("asks YouTube for a translated track when the video has none in the requested language", async () => {
    h.youtube.setCaption(
      VIDEOS.normal.id,
      captionXml(REVIEWS.pt!.sentences.map((text, i) => ({ start: i * 10, duration: 9, text }))),
    );
    const response = await h.chat({ url: watchUrl("normal"), language: "pt" });
    expect(response.status).toBe(200);
    expect(h.youtube.seen.find((s) => s.endpoint === "caption")!.query.tlang).toBe("pt");
  });
});
