/** @module Tests of near-duplicate detection and of `distinctBest()`. */
import { describe, expect, test } from "bun:test";
import { distinctBest, isNearDuplicate } from "../../../src/domain/reading/near-duplicates.ts";
import { terms } from "../../../src/domain/reading/terms.ts";

describe("isNearDuplicate()", () => {
  test("a line repeated with small changes is a near-duplicate", () => {
    expect(
      isNearDuplicate(
        terms("The battery lasts six to seven hours in my tests."),
        terms("the battery lasts six to seven hours in my tests"),
      ),
    ).toBe(true);
    expect(
      isNearDuplicate(
        terms("So the battery lasts six to seven hours in my tests."),
        terms("The battery lasts six to seven hours in my tests, so."),
      ),
    ).toBe(true);
  });

  test("two passages on one topic with different words are not", () => {
    expect(
      isNearDuplicate(
        terms("The battery lasts six to seven hours in my tests."),
        terms("The battery charges in two hours with the supplied charger."),
      ),
    ).toBe(false);
  });

  test("the threshold is a parameter", () => {
    const a = terms("alpha beta gamma delta");
    const b = terms("alpha beta gamma epsilon");
    expect(isNearDuplicate(a, b)).toBe(false);
    expect(isNearDuplicate(a, b, 0.5)).toBe(true);
  });
});

describe("distinctBest()", () => {
  test("keeps the best items, skipping near-duplicates of one kept, until it has enough", () => {
    const texts = [
      "battery lasts seven hours",
      "keyboard feels great",
      "battery lasts seven hours!",
      "screen is bright",
    ];
    expect(distinctBest([0, 2, 1, 3], (i) => terms(texts[i]!), 3)).toEqual([0, 1, 3]);
    expect(distinctBest([2, 0, 1], (i) => terms(texts[i]!), 2)).toEqual([2, 1]);
  });
});
