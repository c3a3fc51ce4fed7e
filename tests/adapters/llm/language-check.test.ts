import { describe, expect, test } from "bun:test";
import { isWrongLanguage } from "../../../src/adapters/llm/language-check.ts";
import type { Language } from "../../../src/domain/chat-request.ts";
import { ANSWERS } from "../../support/fake-llm.ts";

const LANGUAGES: Language[] = ["en", "es", "pt", "ru", "hi"];

describe("isWrongLanguage()", () => {
  for (const wanted of LANGUAGES) {
    test(`passes a ${wanted} answer asked in ${wanted} and flags the other four`, async () => {
      for (const written of LANGUAGES) expect(await isWrongLanguage(ANSWERS[written]!, wanted)).toBe(written !== wanted);
    });
  }

  test("tells Spanish from Portuguese on a sentence-long answer", async () => {
    const pt = "O Surface Go é um tablet leve. A Microsoft lançou o modelo com Windows 10 em modo S, e o revisor gostou da tela e do teclado.";
    const es = "El Surface Go es una tableta ligera. Microsoft lanzó el modelo con Windows 10 en modo S, y al revisor le gustó la pantalla y el teclado.";
    expect(await isWrongLanguage(pt, "es")).toBe(true);
    expect(await isWrongLanguage(es, "pt")).toBe(true);
    expect(await isWrongLanguage(pt, "pt")).toBe(false);
  });

  test("flags an answer in another Latin-script language, such as Dutch, when English was asked", async () => {
    expect(await isWrongLanguage("De video bespreekt de Eerste Wereldoorlog en de loopgraven, en laat zien hoe soldaten leefden aan het front tijdens de winter.", "en")).toBe(true);
  });

  test("passes short answers, where detection is unreliable, and answers full of names and timestamps", async () => {
    expect(await isWrongLanguage("Sí, lo dice [0:05].", "es")).toBe(false);
    expect(await isWrongLanguage("Yes [1:02:03].", "pt")).toBe(false);
    expect(await isWrongLanguage("Surface Go, Windows 10 S, USB-C [0:01]", "ru")).toBe(false);
    expect(await isWrongLanguage("Das Surface Go ist gut.", "en")).toBe(false);
  });

  test("passes a Russian answer that quotes English product names", async () => {
    expect(await isWrongLanguage("Обзор Surface Go от Microsoft: автор хвалит экран, клавиатуру Type Cover и порт USB-C [0:01].", "ru")).toBe(false);
  });
});
