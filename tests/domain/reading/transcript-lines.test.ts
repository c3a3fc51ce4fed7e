/** @module Tests of a transcript's lines: made once per grain on first ask, scored once. */
import { describe, expect, test } from "bun:test";
import { lineCentrality } from "../../../src/domain/reading/condense.ts";
import { createLinesKeeper, createTranscriptLines } from "../../../src/domain/reading/transcript-lines.ts";
import { generateCues } from "../../support/long-transcript.ts";

describe("createTranscriptLines()", () => {
  test("makes a transcript's lines once per grain, and hands them out frozen", () => {
    const transcript = createTranscriptLines(generateCues(600));
    const coarse = transcript.lines("coarse");
    expect(transcript.lines("coarse")).toBe(coarse);
    expect(transcript.lines("fine")).not.toBe(coarse);
    expect(createTranscriptLines(generateCues(600)).lines("coarse")).not.toBe(coarse);
    expect(Object.isFrozen(coarse)).toBe(true);
  });

  test("scores the lines of a grain once, as lineCentrality scores them", () => {
    const transcript = createTranscriptLines(generateCues(600));
    const scores = transcript.scores("coarse");
    expect(transcript.scores("coarse")).toBe(scores);
    expect(scores).toEqual(lineCentrality(transcript.lines("coarse")));
  });

  test("a keeper hands out the same lines for the same cues, and new ones for other cues", () => {
    const keep = createLinesKeeper();
    const cues = generateCues(600);
    expect(keep(cues)).toBe(keep(cues));
    expect(keep(generateCues(600))).not.toBe(keep(cues));
  });

  test("a keeper tells of each grain's lines and scores once, with the cues they were made for", () => {
    const told: [unknown, unknown][] = [];
    const keep = createLinesKeeper((cues, made) => told.push([cues, made]));
    const cues = generateCues(600);
    const lines = keep(cues);
    expect(told).toEqual([]);
    const coarse = lines.lines("coarse");
    const scores = keep(cues).scores("coarse");
    keep(cues).lines("coarse");
    keep(cues).scores("coarse");
    expect(told.length).toBe(2);
    expect(told[0]![0]).toBe(cues);
    expect(told[0]![1]).toBe(coarse);
    expect(told[1]![1]).toBe(scores);
  });
});
