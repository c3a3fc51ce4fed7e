/** @module Tests that the token estimate stays above the real count in every response language. */
import { describe, expect, test } from "bun:test";
import llama3Tokenizer from "llama3-tokenizer-js";
import { estimateTokens } from "../../../src/domain/reading/tokens.ts";

/** The same transcript-like paragraph in each response language, timestamps included. */
const SAMPLES: Record<string, string> = {
  en:
    "[0:01] Hey, this is just a test of the new tablet.\n[0:05] The keyboard cover is surprisingly good to type on, and the screen is bright.\n[12:34] Battery life is around seven hours of mixed use, which is fine for a device this small.\n[1:02:03] In the end I think it is good value, although the base model only has 64 gigabytes of storage.",
  es:
    "[0:01] Hola, esto es solo una prueba de la nueva tableta.\n[0:05] La funda con teclado es sorprendentemente cómoda para escribir, y la pantalla es brillante.\n[12:34] La batería dura unas siete horas de uso mixto, lo cual está bien para un dispositivo tan pequeño.\n[1:02:03] Al final creo que tiene buena relación calidad-precio, aunque el modelo básico solo tiene 64 gigabytes.",
  pt:
    "[0:01] Olá, isto é apenas um teste do novo tablet.\n[0:05] A capa com teclado é surpreendentemente boa para digitar, e a tela é brilhante.\n[12:34] A bateria dura cerca de sete horas de uso misto, o que é bom para um aparelho tão pequeno.\n[1:02:03] No final acho que vale a pena, embora o modelo básico só tenha 64 gigabytes de armazenamento.",
  ru:
    "[0:01] Привет, это просто тест нового планшета.\n[0:05] Чехол с клавиатурой на удивление удобен для набора текста, а экран яркий.\n[12:34] Батареи хватает примерно на семь часов смешанного использования, что неплохо для такого маленького устройства.\n[1:02:03] В итоге я считаю, что он стоит своих денег, хотя в базовой модели всего 64 гигабайта памяти.",
  hi:
    "[0:01] नमस्ते, यह नए टैबलेट का बस एक परीक्षण है।\n[0:05] कीबोर्ड कवर पर टाइप करना आश्चर्यजनक रूप से अच्छा है, और स्क्रीन चमकदार है।\n[12:34] बैटरी मिश्रित उपयोग में लगभग सात घंटे चलती है, जो इतने छोटे उपकरण के लिए ठीक है।\n[1:02:03] अंत में मुझे लगता है कि यह पैसे के लायक है, हालांकि बेस मॉडल में केवल 64 गीगाबाइट स्टोरेज है।",
  symbols: "Système: <transcript> ```code``` **bold** — “quotes” … 😀 emoji 🎉 中文字符测试 日本語のテキスト",
};

const real = (text: string) => llama3Tokenizer.encode(text, { bos: false, eos: false }).length;

describe("estimateTokens()", () => {
  for (const [name, text] of Object.entries(SAMPLES)) {
    test(`stays at or above the Llama 3 tokenizer's count, within 1.7x, for ${name}`, () => {
      const estimate = estimateTokens(text);
      expect(estimate).toBeGreaterThanOrEqual(real(text));
      expect(estimate).toBeLessThanOrEqual(real(text) * 1.7);
    });
  }

  test("counts a long English transcript above the real count", () => {
    const text = Array.from(
      { length: 300 },
      (_, i) =>
        `[${Math.floor(i / 6)}:${
          String((i * 10) % 60).padStart(2, "0")
        }] So the battery holds up well in daily use, and the keyboard feels fine.`,
    ).join("\n");
    expect(estimateTokens(text)).toBeGreaterThanOrEqual(real(text));
  });

  test("is 0 for empty text", () => {
    expect(estimateTokens("")).toBe(0);
  });

  test("weighs a code point beyond the first plane (two UTF-16 units) once, and a lone surrogate as one", () => {
    // 1.5 per code point outside the table, and the 15 % margin: ceil(1.5 × n × 1.15).
    expect(estimateTokens("😀")).toBe(2);
    expect(estimateTokens("😀😀")).toBe(4);
    expect(estimateTokens("\ud800")).toBe(2);
    expect(estimateTokens("\ud800a")).toBe(Math.ceil((1.5 + 0.3) * 1.15));
    expect(estimateTokens("ab ")).toBe(Math.ceil((0.3 + 0.3 + 0.02) * 1.15));
  });
});
