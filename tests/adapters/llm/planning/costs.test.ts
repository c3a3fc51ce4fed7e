/** @module Tests of summary planning (one call, map-reduce, condensed or refused) and of excerpt room. */
import { describe, expect, test } from "bun:test";
import { type CallCosts, excerptRoom, linesTokens, planSummary } from "../../../../src/adapters/llm/planning/costs.ts";
import { transcriptLines } from "../../../../src/domain/reading/chunking.ts";
import { generateCues } from "../../../support/long-transcript.ts";

const COSTS: CallCosts = {
  answerPrompt: 300,
  notesPrompt: 250,
  combinePrompt: 280,
  output: 1024,
  notes: 320,
  reasoning: 0,
};
const lines = (minutes: number) => transcriptLines(generateCues(minutes * 60), "coarse");

describe("planSummary()", () => {
  test("reads a short transcript in one call", () => {
    const plan = planSummary(lines(5), COSTS, { maxCallTokens: 6000, available: 6000 });
    expect([plan.shape, plan.coverage]).toEqual(["one-call", 1]);
  });

  test("maps a transcript longer than one call when the budget can pay for every part", () => {
    const transcript = lines(60);
    const plan = planSummary(transcript, COSTS, { maxCallTokens: 6000, available: 40_000 });
    expect([plan.shape, plan.coverage]).toEqual(["map-reduce", 1]);
    expect(plan.cost).toBeLessThanOrEqual(40_000);
    expect(plan.cost).toBeGreaterThan(linesTokens(transcript));
  });

  test("condenses what the budget cannot read before the deadline, keeping the first and last lines, within the budget", () => {
    const transcript = lines(180);
    const plan = planSummary(transcript, COSTS, { maxCallTokens: 6000, available: 15_000 });
    expect(plan.shape).toBe("condensed");
    if (plan.shape !== "condensed") return;
    expect(plan.cost).toBeLessThanOrEqual(15_000);
    expect(plan.coverage).toBeGreaterThan(0.2);
    expect(plan.coverage).toBeLessThan(1);
    expect(plan.lines[0]).toEqual(transcript[0]!);
    expect(plan.lines.at(-1)).toEqual(transcript.at(-1)!);
  });

  test("refuses when not even a small plan fits, saying how many tokens are missing", () => {
    const plan = planSummary(lines(60), COSTS, { maxCallTokens: 6000, available: 1500 });
    expect(plan.shape).toBe("refused");
    if (plan.shape === "refused") expect(plan.retryAfterTokens).toBeGreaterThan(0);
  });

  test("a paid plan's large window reads an hour in one call", () => {
    const plan = planSummary(lines(60), COSTS, { maxCallTokens: 131_072, available: 300_000 });
    expect(plan.shape).toBe("one-call");
  });
});

describe("excerptRoom()", () => {
  test("keeps a question's excerpts to a tenth of a small window, and to what the call allows on a large one", () => {
    expect(excerptRoom(COSTS, { maxCallTokens: 6000, available: 15_000 }, 6000)).toBe(600);
    expect(excerptRoom(COSTS, { maxCallTokens: 6000, available: 500_000 }, 300_000)).toBe(6000 - 300 - 1024);
    expect(excerptRoom(COSTS, { maxCallTokens: 6000, available: 1500 }, 6000)).toBe(176);
  });
});
