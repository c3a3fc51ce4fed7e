/** @module Tests of the token calibration learnt from the provider's counts. */
import { describe, expect, test } from "bun:test";
import { createTokenCalibration } from "../../../../src/adapters/llm/planning/calibration.ts";
import { estimateTokens } from "../../../../src/domain/reading/tokens.ts";

const TEXT = "The battery lasts about seven hours in my tests. ".repeat(40);

describe("createTokenCalibration()", () => {
  test("counts as the raw estimate until the provider has counted something", () => {
    expect(createTokenCalibration().counter("en")(TEXT)).toBe(estimateTokens(TEXT));
  });

  test("scales to the highest recent real-to-estimated ratio of that language, plus a margin", () => {
    const calibration = createTokenCalibration();
    calibration.observe("en", 2000, 1400);
    calibration.observe("en", 2000, 1300);
    expect(calibration.counter("en")(TEXT)).toBe(Math.ceil(estimateTokens(TEXT) * 0.7 * 1.05));
    expect(calibration.counter("hi")(TEXT)).toBe(estimateTokens(TEXT));
  });

  test("never counts above the raw estimate, and ignores short prompts", () => {
    const calibration = createTokenCalibration();
    calibration.observe("ru", 2000, 2600);
    calibration.observe("es", 1000, 100);
    expect(calibration.counter("ru")(TEXT)).toBe(estimateTokens(TEXT));
    expect(calibration.counter("es")(TEXT)).toBe(estimateTokens(TEXT));
  });
});
