/** @module Scales the token estimate to what the provider really counts, per transcript language. */
import type { TokenCounter } from "../../../domain/reading/chunking.ts";
import { estimateTokens } from "../../../domain/reading/tokens.ts";

/** How many recent calls per language the scale is learnt from. */
const SAMPLES = 20;
/** Margin over the highest ratio seen, so the scaled count stays on the safe side. */
const MARGIN = 1.05;

/**
 * The token estimate, scaled to what the provider really counts. The
 * estimate is built to overcount (by 40 % on plain English), which on a
 * small plan means reading less and waiting longer than needed. Each
 * answered call says how many prompt tokens the provider counted; the scale
 * is the highest real-to-estimated ratio of the recent calls of that
 * transcript language, plus a margin, never above 1 (the raw estimate).
 */
export interface TokenCalibration {
  /** @returns the calibrated counter for texts mostly in `language` */
  counter(language: string): TokenCounter;
  /** Records a call: the estimate it was sent with and the provider's count. */
  observe(language: string, estimated: number, counted: number): void;
}

/** @returns a calibration shared by every answer of this process */
export function createTokenCalibration(): TokenCalibration {
  const ratios = new Map<string, number[]>();
  const scale = (language: string) => {
    const seen = ratios.get(language);
    return seen && seen.length > 0 ? Math.min(1, Math.max(...seen) * MARGIN) : 1;
  };
  return {
    counter(language) {
      const factor = scale(language);
      return factor === 1 ? estimateTokens : (text) => Math.ceil(estimateTokens(text) * factor);
    },
    observe(language, estimated, counted) {
      // Short prompts (the reduce call over notes too) are mostly template, notes and timestamps: they say little about
      // the transcript's text.
      if (estimated < 1500 || counted <= 0) return;
      const seen = ratios.get(language) ?? [];
      seen.push(counted / estimated);
      if (seen.length > SAMPLES) seen.shift();
      ratios.set(language, seen);
    },
  };
}
