/** @module Makes every `[m:ss]` citation in an answer point at a moment that exists in the transcript. */
import { type Cue, formatTimestamp } from "../../../domain/transcript.ts";

const CITATION = / ?\[((?:\d{1,2}:)?\d{1,2}:\d{2})\]/g;

/**
 * Makes every `[m:ss]` citation point at a moment that exists in the
 * transcript: one equal to a cue's start stays; one inside a cue (a model
 * rounding, or citing a moment mid-cue) becomes that cue's start; one
 * outside every cue (invented) is removed.
 *
 * @param text the answer
 * @param cues the transcript
 * @returns the answer with checked citations
 */
export function checkCitations(text: string, cues: readonly Cue[]): string {
  const known = new Set(cues.map((cue) => formatTimestamp(cue.start)));
  const starts = cues.map((cue) => Math.floor(cue.start));
  return text.replace(CITATION, (whole, stamp: string) => {
    if (known.has(stamp)) return whole;
    const cue = cueAt(cues, starts, toSeconds(stamp));
    return cue ? whole.replace(stamp, formatTimestamp(cue.start)) : "";
  });
}

function toSeconds(stamp: string): number {
  return stamp.split(":").reduce((total, part) => total * 60 + Number(part), 0);
}

/** @returns the cue playing at `seconds` (a second of slack at its end), if any */
function cueAt(cues: readonly Cue[], starts: readonly number[], seconds: number): Cue | undefined {
  let low = 0;
  let high = starts.length - 1;
  let found = -1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (starts[mid]! <= seconds) {
      found = mid;
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  const cue = cues[found];
  return cue && seconds <= cue.start + cue.duration + 1 ? cue : undefined;
}
