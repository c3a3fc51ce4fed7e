/** @module Tests of TextRank centrality scores. */
import { describe, expect, test } from "bun:test";
import { terms } from "../../../src/domain/reading/terms.ts";
import { centrality } from "../../../src/domain/reading/textrank.ts";

describe("centrality()", () => {
  test("scores highest the sentence sharing words with most others", () => {
    const sentences = [
      "The tablet battery lasts long and the tablet screen is bright.",
      "The battery lasts seven hours.",
      "The screen is bright outdoors.",
      "The tablet is light.",
      "My cat sleeps all afternoon.",
      "Dinner was pasta yesterday evening.",
      "Weather turned cold overnight.",
      "Trains were late this morning again.",
      "Music played loudly downstairs.",
      "Someone knocked twice.",
    ].map(terms);
    const scores = centrality(sentences);
    expect(scores.indexOf(Math.max(...scores))).toBe(0);
    expect(scores[4]).toBeLessThan(scores[1]!);
  });

  test("returns scores summing to 1, even for isolated sentences", () => {
    const scores = centrality([["alpha"], ["beta"], ["gamma"]]);
    expect(scores.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 6);
    expect(scores[0]).toBeCloseTo(1 / 3, 6);
  });

  test("returns nothing for no documents and ranks 2,000 sentences quickly", () => {
    expect(centrality([])).toEqual([]);
    const many = Array.from(
      { length: 2000 },
      (_, i) => terms(`topic${i % 40} detail${i % 97} common words appear here sentence ${i}`),
    );
    const started = performance.now();
    expect(centrality(many)).toHaveLength(2000);
    expect(performance.now() - started).toBeLessThan(3000);
  });
});
