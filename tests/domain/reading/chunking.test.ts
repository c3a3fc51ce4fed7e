/** @module Tests of cutting transcripts into budgeted chunks and of rendering them as `[m:ss]` lines. */
import { describe, expect, test } from "bun:test";
import { chunkCues, cueLine, renderCues, transcriptLines } from "../../../src/domain/reading/chunking.ts";
import { estimateTokens } from "../../../src/domain/reading/tokens.ts";
import type { Cue } from "../../../src/domain/transcript.ts";
import { generateCues } from "../../support/long-transcript.ts";

const cost = (cues: readonly Cue[]) => cues.reduce((sum, cue) => sum + estimateTokens(cueLine(cue)) + 1, 0);

describe("chunkCues()", () => {
  const cues = generateCues(3 * 3600);

  test("keeps every chunk within the budget and every cue, in order", () => {
    const chunks = chunkCues(cues, 1000);
    for (const chunk of chunks) {
      expect(chunk.tokens).toBeLessThanOrEqual(1000);
      expect(chunk.tokens).toBe(cost(chunk.cues));
    }
    expect(chunks.flatMap((c) => c.cues)).toEqual(cues);
  });

  test("balances the chunks: the smallest is not a scrap", () => {
    const chunks = chunkCues(cues, 1000);
    const sizes = chunks.map((c) => c.tokens);
    expect(Math.min(...sizes)).toBeGreaterThan(0.8 * Math.max(...sizes));
    expect(chunks.length).toBeLessThanOrEqual(Math.ceil(cost(cues) / 1000) + 1);
  });

  test("gives one chunk when everything fits, and none for no cues", () => {
    expect(chunkCues(cues.slice(0, 5), 1000)).toHaveLength(1);
    expect(chunkCues([], 1000)).toEqual([]);
  });

  test("cuts a cue longer than the budget between words, keeping its start", () => {
    const long: Cue = { start: 65, duration: 600, text: Array.from({ length: 400 }, (_, i) => `word${i}`).join(" ") };
    const chunks = chunkCues([long], 100);
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) {
      expect(chunk.tokens).toBeLessThanOrEqual(100);
      expect(chunk.cues.every((c) => c.start === 65)).toBe(true);
    }
    expect(chunks.flatMap((c) => c.cues.map((cue) => cue.text)).join(" ")).toBe(long.text);
  });
});

describe("transcriptLines()", () => {
  test("joins cues into lines that start on a cue and end where the last cue ends", () => {
    const cues = generateCues(120);
    const lines = transcriptLines(cues, "coarse");
    expect(lines.length).toBeLessThan(cues.length / 4);
    const starts = new Set(cues.map((c) => c.start));
    for (const line of lines) expect(starts.has(line.start)).toBe(true);
    expect(lines.map((l) => l.text).join(" ")).toBe(cues.map((c) => c.text).join(" "));
    expect(lines.at(-1)!.start + lines.at(-1)!.duration).toBe(120);
  });

  test("renders lines as [m:ss] text, hours when needed", () => {
    expect(renderCues([{ start: 3723, duration: 1, text: "hi" }, { start: 5, duration: 1, text: "yo" }])).toBe(
      "[1:02:03] hi\n[0:05] yo",
    );
  });
});
