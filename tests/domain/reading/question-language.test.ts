/** @module Tests of telling a question's language, or saying nothing when unsure. */
import { describe, expect, test } from "bun:test";
import { questionLanguage } from "../../../src/domain/reading/question-language.ts";

describe("questionLanguage()", () => {
  test.each([
    ["How long does the battery last?", "en"],
    ["What does the reviewer think of the keyboard?", "en"],
    ["¿Cuánto dura la batería?", "es"],
    ["Qué opina del teclado", "es"],
    ["Quanto tempo dura a bateria?", "pt"],
    ["O que ele acha da câmera?", "pt"],
    ["Сколько держит батарея?", "ru"],
    ["बैटरी कितनी देर चलती है?", "hi"],
  ])("tells %p is %p", (question, language) => {
    expect(questionLanguage(question)).toBe(language as never);
  });

  test("says nothing when it cannot tell: a bare word, a tie, digits, another script", () => {
    expect(questionLanguage("battery?")).toBeUndefined();
    expect(questionLanguage("USB-C")).toBeUndefined();
    expect(questionLanguage("1:58")).toBeUndefined();
    expect(questionLanguage("バッテリーは?")).toBeUndefined();
    expect(questionLanguage("")).toBeUndefined();
  });

  test("a question mostly in one script is that script's language, whatever brand names it holds", () => {
    expect(questionLanguage("Сколько стоит Surface Go?")).toBe("ru");
    expect(questionLanguage("Surface Go की कीमत क्या है?")).toBe("hi");
  });
});
