/** @module Tests of the wrong-language check on the labelled corpus and on short answers. */
import { describe, expect, test } from "bun:test";
import { isWrongLanguage } from "../../../../src/adapters/llm/shaping/language-check.ts";
import { LANGUAGES } from "../../../../src/domain/chat-request.ts";
import { ANSWERS } from "../../../support/fake/llm.ts";
import { corpusCases, letterCount } from "./language-corpus/corpus.ts";

/** The corpus cases the check gets wrong, one line each, so a failure names them. */
async function failures(wrong: boolean, minLetters: number): Promise<string[]> {
  const cases = corpusCases().filter((c) => c.wrong === wrong && letterCount(c.text) >= minLetters);
  expect(cases.length).toBeGreaterThan(wrong ? 800 : 250);
  const out: string[] = [];
  for (const c of cases) {
    if ((await isWrongLanguage(c.text, c.asked)) !== wrong) {
      out.push(`${c.written} asked ${c.asked}: ${c.text.replace(/\s+/g, " ").slice(0, 80)}`);
    }
  }
  return out;
}

describe("isWrongLanguage() on the labelled corpus (tests/adapters/llm/language-corpus)", () => {
  test("catches every plainly wrong answer of 80 letters or more", async () => {
    expect(await failures(true, 80)).toEqual([]);
  });

  test("flags no right-language answer, of any length", async () => {
    expect(await failures(false, 0)).toEqual([]);
  });

  test("catches English answers that franc-min's relative scores let through (issue 15)", async () => {
    const carbonara =
      "## Summary\n\nThe chef makes a classic carbonara with guanciale, egg yolks and Pecorino Romano [0:35]. She insists that **no cream** goes into the sauce [2:10], and she tosses the pasta off the heat so the eggs do not scramble [6:48].";
    const table =
      "| Model | Price | Battery |\n|---|---|---|\n| MacBook Air M3 | $1,099 | 18 h |\n| Dell XPS 13 | $999 | 12 h |\n\nThe presenter picks the MacBook Air for its battery life [13:20].";
    expect(await isWrongLanguage(carbonara, "pt")).toBe(true);
    expect(await isWrongLanguage(table, "es")).toBe(true);
    expect(await isWrongLanguage(carbonara, "en")).toBe(false);
  });
});

describe("isWrongLanguage() below 80 letters (a streamed first part)", () => {
  test("judges the script only: another script is flagged, another Latin-script language passes", async () => {
    const ru = "Автор хвалит экран и клавиатуру планшета.";
    const en = "The reviewer likes the screen and the keyboard.";
    expect(letterCount(ru)).toBeLessThan(80);
    expect(await isWrongLanguage(ru, "es")).toBe(true);
    expect(await isWrongLanguage(en, "hi")).toBe(true);
    expect(await isWrongLanguage(en, "es")).toBe(false);
    expect(await isWrongLanguage(en, "en")).toBe(false);
  });
});

describe("isWrongLanguage()", () => {
  for (const wanted of LANGUAGES) {
    test(`passes a ${wanted} answer asked in ${wanted} and flags the others`, async () => {
      for (const written of LANGUAGES) {
        expect(await isWrongLanguage(ANSWERS[written]!, wanted)).toBe(written !== wanted);
      }
    });
  }

  test("tells Spanish from Portuguese on a sentence-long answer", async () => {
    const pt =
      "O Surface Go é um tablet leve. A Microsoft lançou o modelo com Windows 10 em modo S, e o revisor gostou da tela e do teclado.";
    const es =
      "El Surface Go es una tableta ligera. Microsoft lanzó el modelo con Windows 10 en modo S, y al revisor le gustó la pantalla y el teclado.";
    expect(await isWrongLanguage(pt, "es")).toBe(true);
    expect(await isWrongLanguage(es, "pt")).toBe(true);
    expect(await isWrongLanguage(pt, "pt")).toBe(false);
  });

  test("flags an answer in another Latin-script language, such as Dutch, when English was asked", async () => {
    expect(
      await isWrongLanguage(
        "De video bespreekt de Eerste Wereldoorlog en de loopgraven, en laat zien hoe soldaten leefden aan het front tijdens de winter.",
        "en",
      ),
    ).toBe(true);
  });

  test("passes short answers, where detection is unreliable, and answers full of names and timestamps", async () => {
    expect(await isWrongLanguage("Sí, lo dice [0:05].", "es")).toBe(false);
    expect(await isWrongLanguage("Yes [1:02:03].", "pt")).toBe(false);
    expect(await isWrongLanguage("Surface Go, Windows 10 S, USB-C [0:01]", "ru")).toBe(false);
    expect(await isWrongLanguage("Das Surface Go ist gut.", "en")).toBe(false);
  });

  test("passes a Russian answer that quotes English product names", async () => {
    expect(
      await isWrongLanguage(
        "Обзор Surface Go от Microsoft: автор хвалит экран, клавиатуру Type Cover и порт USB-C [0:01].",
        "ru",
      ),
    ).toBe(false);
  });
});
