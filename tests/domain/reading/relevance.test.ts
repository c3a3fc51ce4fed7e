/** @module Tests of excerpt selection for a question and of reading timestamps in it. */
import { describe, expect, test } from "bun:test";
import { cueLine } from "../../../src/domain/reading/chunking.ts";
import { carriedScores, mergeRankings, selectExcerpts, timestampsIn } from "../../../src/domain/reading/relevance.ts";
import { estimateTokens } from "../../../src/domain/reading/tokens.ts";
import { generateCues, NEEDLE } from "../../support/long-transcript.ts";
import { CORPUS, documentaryCues } from "../../support/retrieval-corpus.ts";

describe("selectExcerpts()", () => {
  const cues = generateCues(3 * 3600, { needleAt: 3 * 3600 - 100 });

  test("finds a passage in the last minutes of a three-hour transcript within the budget", () => {
    const excerpts = selectExcerpts(cues, "What is the secret ingredient of the recipe?", 2000);
    expect(excerpts.matched).toBe(true);
    const chosen = excerpts.runs.flat();
    expect(chosen.map((c) => c.text)).toContain(NEEDLE);
    expect(chosen.reduce((sum, cue) => sum + estimateTokens(cueLine(cue)) + 1, 0)).toBeLessThanOrEqual(2000);
  });

  test("takes a passage at a timestamp the question names", () => {
    const excerpts = selectExcerpts(cues, "What is said at 1:30:00?", 500);
    expect(excerpts.runs.flat().some((c) => c.start === 5400)).toBe(true);
  });

  test("reports no match when the question's words are absent or everywhere", () => {
    expect(selectExcerpts(cues, "Quantum chromodynamics?", 2000).matched).toBe(false);
    expect(selectExcerpts(cues, "the the", 2000).matched).toBe(false);
  });
});

describe("selectExcerpts() with search words and another reading", () => {
  const english = documentaryCues("en");
  const spanish = documentaryCues("es");
  const lighthouse = CORPUS.topics[0]!;
  const chosen = (query: Parameters<typeof selectExcerpts>[1]) =>
    selectExcerpts(english, query, 800).runs.flat().map((c) => c.text);

  test("a question in other words misses its fact alone, and finds it with the model's search words", () => {
    expect(chosen({ question: lighthouse.ask.other, language: "en" })).not.toContain(lighthouse.fact.en);
    expect(chosen({ question: lighthouse.ask.other, language: "en", searchWords: lighthouse.guess.en }))
      .toContain(lighthouse.fact.en);
  });

  test("search words that miss cost a question in the transcript's words nothing: its best passage comes first", () => {
    const query = { question: lighthouse.ask.own, language: "en" as const, searchWords: "quantum chromodynamics" };
    expect(chosen(query)).toContain(lighthouse.fact.en);
  });

  test("a Spanish question finds the English fact through the Spanish reading, carried over by time", () => {
    const question = lighthouse.ask.es;
    const carried = carriedScores(question, { cues: spanish, language: "es" }, english);
    expect(chosen({ question, language: "en" })).not.toContain(lighthouse.fact.en);
    expect(chosen({ question, language: "en", carried })).toContain(lighthouse.fact.en);
  });
});

describe("mergeRankings()", () => {
  test("the best of each ranking first, then by the sum of scaled scores; unmatched passages left out", () => {
    expect(mergeRankings([3, 0, 1, 0, 0], [0, 0, 0.5, 2, 0])).toEqual([0, 3, 2]);
    expect(mergeRankings([0, 1, 0], [])).toEqual([1]);
    expect(mergeRankings([Number.POSITIVE_INFINITY, 5, 0])).toEqual([0, 1]);
  });
});

describe("timestampsIn()", () => {
  test("reads m:ss and h:mm:ss", () => {
    expect(timestampsIn("at 2:05 and 1:02:03, not 12345")).toEqual([125, 3723]);
  });
});
