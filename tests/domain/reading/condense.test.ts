/** @module Tests of condensing a transcript to a budget, spread over its whole timeline. */
import { describe, expect, test } from "bun:test";
import { cueLine } from "../../../src/domain/reading/chunking.ts";
import { condenseLines } from "../../../src/domain/reading/condense.ts";
import { estimateTokens } from "../../../src/domain/reading/tokens.ts";
import { transcriptLines } from "../../../src/domain/reading/chunking.ts";
import { generateCues } from "../../support/long-transcript.ts";

const lines = transcriptLines(generateCues(3 * 3600), "coarse");

describe("condenseLines()", () => {
  test("keeps the whole transcript when it fits", () => {
    const all = condenseLines(lines.slice(0, 10), 1_000_000);
    expect(all.lines).toHaveLength(10);
    expect(all.tokens).toBe(all.totalTokens);
  });

  test("fits the budget, keeps the first and last lines, and stays in transcript order", () => {
    const kept = condenseLines(lines, 8000);
    const cost = kept.lines.reduce((sum, line) => sum + estimateTokens(cueLine(line)) + 1, 0);
    expect(cost).toBe(kept.tokens);
    expect(kept.tokens).toBeLessThanOrEqual(8000);
    expect(kept.tokens).toBeGreaterThan(7000);
    expect(kept.lines[0]).toBe(lines[0]!);
    expect(kept.lines.at(-1)).toBe(lines.at(-1)!);
    expect(kept.lines.map((l) => l.start)).toEqual([...kept.lines.map((l) => l.start)].sort((a, b) => a - b));
  });

  test("spreads what it keeps over the whole timeline: every tenth of the video is represented", () => {
    const kept = condenseLines(lines, 6000);
    const end = lines.at(-1)!.start + 1;
    const tenths = new Set(kept.lines.map((line) => Math.floor((line.start / end) * 10)));
    expect(tenths.size).toBe(10);
  });
});
