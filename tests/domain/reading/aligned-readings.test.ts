/** @module Tests of carrying passage scores between two readings of a video by time. */
import { describe, expect, test } from "bun:test";
import { carryScores, span } from "../../../src/domain/reading/aligned-readings.ts";
import type { Passage } from "../../../src/domain/reading/passages.ts";

const passage = (start: number, end: number): Passage => ({
  start,
  cues: [{ start, duration: end - start, text: "x" }],
  text: "x",
});

describe("carryScores()", () => {
  test("a passage's score goes to the passage of the other reading at the same time", () => {
    const from = [passage(0, 10), passage(10, 20), passage(20, 30)];
    const onto = [passage(0, 10), passage(10, 20), passage(20, 30)];
    expect(carryScores(from, [0, 4, 0], onto)).toEqual([0, 4, 0]);
  });

  test("a passage cut differently shares its score by overlap, dropping slivers", () => {
    const from = [passage(0, 20)];
    const onto = [passage(0, 10), passage(10, 19), passage(19, 30)];
    const carried = carryScores(from, [10], onto);
    expect(carried[0]).toBeCloseTo(5);
    expect(carried[1]).toBeCloseTo(4.5);
    expect(carried[2]).toBe(0);
  });

  test("a match that overlaps nothing still lands on the nearest passage", () => {
    const carried = carryScores([passage(100, 110)], [3], [passage(0, 10), passage(50, 60)]);
    expect(carried).toEqual([0, 3]);
  });

  test("a match spread thin over short passages lands whole on the one it overlaps most", () => {
    const onto = [passage(0, 2), passage(2, 4.4), passage(4.4, 6.4), passage(6.4, 8.4), passage(8.4, 40)];
    expect(carryScores([passage(0, 10)], [2], onto)).toEqual([0, 2, 0, 0, 0]);
  });

  test("span() runs from the first cue's start to the last cue's end", () => {
    expect(
      span({
        start: 5,
        cues: [{ start: 5, duration: 2, text: "a" }, { start: 8, duration: 3, text: "b" }],
        text: "a b",
      }),
    ).toEqual([5, 11]);
  });
});
