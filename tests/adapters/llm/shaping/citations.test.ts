/** @module Tests of citation checking: kept, moved to a cue's start, or removed. */
import { describe, expect, test } from "bun:test";
import { checkCitations } from "../../../../src/adapters/llm/shaping/citations.ts";

const cues = [
  { start: 0, duration: 1.54, text: "Hey" },
  { start: 1.54, duration: 4.16, text: "this is not" },
  { start: 65.7, duration: 3.2, text: "later" },
  { start: 3723, duration: 5, text: "an hour in" },
];

describe("checkCitations()", () => {
  test("keeps citations of cue starts", () => {
    expect(checkCitations("He says hi [0:00], later [1:05] and [1:02:03].", cues)).toBe(
      "He says hi [0:00], later [1:05] and [1:02:03].",
    );
  });

  test("moves a citation inside a cue to that cue's start", () => {
    expect(checkCitations("Here [0:04].", cues)).toBe("Here [0:01].");
    expect(checkCitations("Then [1:07].", cues)).toBe("Then [1:05].");
  });

  test("removes invented citations with their space", () => {
    expect(checkCitations("Nothing there [12:34]. Nor [9:99:99].", cues)).toBe("Nothing there. Nor.");
  });
});
