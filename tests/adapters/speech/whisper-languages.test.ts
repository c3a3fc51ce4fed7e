/** @module Tests of whisper-languages.ts: Whisper's language names as ISO codes. */
import { describe, expect, test } from "bun:test";
import { languageCode } from "../../../src/adapters/speech/whisper-languages.ts";

describe("languageCode", () => {
  test("turns whisper's language names, in any case, into codes", () => {
    expect(languageCode("English")).toBe("en");
    expect(languageCode("german")).toBe("de");
    expect(languageCode("Haitian Creole")).toBe("ht");
    expect(languageCode("cantonese")).toBe("yue");
  });

  test("keeps a code it knows, and names nothing for what it does not know", () => {
    expect(languageCode("pt")).toBe("pt");
    expect(languageCode("klingon")).toBeUndefined();
    expect(languageCode(undefined)).toBeUndefined();
    expect(languageCode(42)).toBeUndefined();
  });
});
