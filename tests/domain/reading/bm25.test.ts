/** @module Tests of the BM25 ranking and of `terms()` in every script. */
import { describe, expect, test } from "bun:test";
import { createBm25 } from "../../../src/domain/reading/bm25.ts";
import { terms } from "../../../src/domain/reading/terms.ts";

const docs = [
  "the battery lasts seven hours",
  "the keyboard cover is good to type on",
  "the screen is bright and the keyboard is backlit with white light at night",
  "the price is fair for what you get",
].map((text) => terms(text));

describe("createBm25()", () => {
  test("ranks the document holding the rare query word first", () => {
    const scores = createBm25(docs).scores(terms("How long does the battery last?"));
    expect(scores.indexOf(Math.max(...scores))).toBe(0);
  });

  test("prefers the shorter document when both hold the word once", () => {
    const scores = createBm25(docs).scores(terms("keyboard"));
    expect(scores[1]).toBeGreaterThan(scores[2]!);
    expect(scores[0]).toBe(0);
  });

  test("scores 0 everywhere when no query word occurs, and counts document frequencies", () => {
    const index = createBm25(docs);
    expect(index.scores(terms("camera lens"))).toEqual([0, 0, 0, 0]);
    expect(index.documentFrequency("keyboa")).toBe(2);
    expect(index.size).toBe(4);
  });
});

describe("terms()", () => {
  test("keeps Devanagari words whole (vowel signs are marks) and folds case in Cyrillic", () => {
    expect(terms("बैटरी अच्छी है")).toEqual(["बैटरी", "अच्छी"]);
    expect(terms("Планшет планшета")).toEqual(["планше", "планше"]);
  });

  test("cuts words to six code points so simple inflections match", () => {
    expect(terms("keyboards keyboard")).toEqual(["keyboa", "keyboa"]);
  });
});

describe("terms() function words", () => {
  test("drops the commonest function words of every response language", () => {
    expect(terms("What is the price of it?")).toEqual(["price"]);
    expect(terms("¿Cuál es el precio de la tableta?")).toEqual(["precio", "tablet"]);
    expect(terms("Что он говорит о цене?")).toEqual(["говори", "цене"]);
  });
});
