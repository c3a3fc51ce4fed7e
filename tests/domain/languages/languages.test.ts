/** @module Tests of the language table: what every part of the service needs of each answer language. */
import { describe, expect, test } from "bun:test";
import { isWrongLanguage, LATIN_CANDIDATES } from "../../../src/adapters/llm/shaping/language-check.ts";
import { systemPrompt } from "../../../src/adapters/llm/planning/prompts.ts";
import { languageCode } from "../../../src/adapters/speech/whisper-languages.ts";
import { SCRIPTS } from "../../../src/domain/languages/language-facts.ts";
import { type Language, languageFacts, LANGUAGES } from "../../../src/domain/languages/languages.ts";
import { questionLanguage } from "../../../src/domain/reading/question-language.ts";

/** Each language's own sentences: the offline engine's four, a right answer of some 200 letters. */
const sentences = (language: Language) => Object.values(languageFacts(language).offlinePhrases);
const letters = (text: string) => text.match(/\p{L}/gu) ?? [];
const scriptShare = (text: string, language: Language) =>
  letters(text).filter((c) => SCRIPTS[languageFacts(language).script].test(c)).length / letters(text).length;

describe("the language table", () => {
  test("offers the API's answer languages, in the order the API lists them", () => {
    expect(LANGUAGES).toEqual(["en", "hi", "es", "pt", "ru"]);
  });

  describe.each(LANGUAGES.map((language) => [language]))("%s", (language) => {
    const facts = languageFacts(language);

    test("is an ISO 639-1 code that whisper (speech-to-text) reports as itself", () => {
      expect(language).toMatch(/^[a-z]{2}$/);
      expect(languageCode(language)).toBe(language);
    });

    test("has its stop words, generic words and sentences written in its script", () => {
      for (const words of [facts.stopWords, facts.genericWords]) {
        expect(words.split(" ").every((word) => word.length > 0)).toBe(true);
        expect(scriptShare(words, language)).toBe(1);
      }
      for (const sentence of sentences(language)) expect(scriptShare(sentence, language)).toBeGreaterThan(0.9);
    });

    test("has question cues when another answer language shares its script", () => {
      const shared = LANGUAGES.some((other) => other !== language && languageFacts(other).script === facts.script);
      if (shared) expect(facts.questionCues?.words.split(" ").length).toBeGreaterThan(20);
    });

    test("its sentences are told as written in it (by script, else by its question cues)", () => {
      for (const sentence of sentences(language)) expect(questionLanguage(sentence)).toBe(language);
    });

    test("its whole-video phrases are regular expressions (the intent corpus tests what they match)", () => {
      expect(facts.wholeVideoPhrases.length).toBeGreaterThan(5);
      for (const source of facts.wholeVideoPhrases) expect(() => new RegExp(source, "u")).not.toThrow();
    });

    test("the wrong-language check passes its sentences as a right answer and flags them for every other language", async () => {
      const answer = sentences(language).join(" ");
      expect(letters(answer).length).toBeGreaterThanOrEqual(80);
      for (const asked of LANGUAGES) expect(await isWrongLanguage(answer, asked)).toBe(asked !== language);
      if (facts.script === "latin") expect(LATIN_CANDIDATES).toContain(language);
    });

    test("the LLM is told to answer in it by name and code", () => {
      expect(systemPrompt(language, "text")).toContain(`Always answer in ${facts.name} (language code ${language})`);
    });
  });
});
