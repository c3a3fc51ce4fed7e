/** @module Tests of a transcript's reading: its lines and scores made once, on first ask. */
import { describe, expect, test } from "bun:test";
import { lineCentrality } from "../../../src/domain/reading/condense.ts";
import { createTranscriptReading } from "../../../src/domain/reading/transcript-reading.ts";
import { generateCues } from "../../support/long-transcript.ts";

describe("createTranscriptReading()", () => {
  test("makes a transcript's lines once per grain, and hands them out frozen", () => {
    const reading = createTranscriptReading(generateCues(600));
    const coarse = reading.lines("coarse");
    expect(reading.lines("coarse")).toBe(coarse);
    expect(reading.lines("fine")).not.toBe(coarse);
    expect(createTranscriptReading(generateCues(600)).lines("coarse")).not.toBe(coarse);
    expect(Object.isFrozen(coarse)).toBe(true);
  });

  test("scores the lines of a grain once, as lineCentrality scores them", () => {
    const reading = createTranscriptReading(generateCues(600));
    const scores = reading.scores("coarse");
    expect(reading.scores("coarse")).toBe(scores);
    expect(scores).toEqual(lineCentrality(reading.lines("coarse")));
  });
});
