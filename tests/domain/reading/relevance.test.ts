/** @module Tests of excerpt selection for a question and of reading timestamps in it. */
import { describe, expect, test } from "bun:test";
import { cueLine } from "../../../src/domain/reading/chunking.ts";
import { selectExcerpts, timestampsIn } from "../../../src/domain/reading/relevance.ts";
import { estimateTokens } from "../../../src/domain/reading/tokens.ts";
import { generateCues, NEEDLE } from "../../support/long-transcript.ts";

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

describe("timestampsIn()", () => {
  test("reads m:ss and h:mm:ss", () => {
    expect(timestampsIn("at 2:05 and 1:02:03, not 12345")).toEqual([125, 3723]);
  });
});
