/** @module The transcript cap: the most cues and characters of a transcript the service reads, and the cut past it. */
import type { Cue, Transcript } from "../transcript.ts";

/**
 * The most of a transcript the service reads: about 9 hours of speech (a spoken hour is about 55,000 characters in
 * 900 to 1,800 cues). Captions are the uploader's own text, so the cap bounds what a crafted track can make reading
 * and planning cost, whatever its shape: every step stays well under 50 ms at the cap (bench/crafted-transcripts.ts).
 */
export const TRANSCRIPT_CAP = { cues: 30_000, characters: 500_000 } as const;

/**
 * Keeps a transcript's beginning within the cap: whole cues in order while both the cue count and the characters
 * stay within it (a first cue longer than the cap alone is cut between characters). A transcript within the cap is
 * returned as it is.
 *
 * @param transcript as the source read it
 * @param cap the most cues and characters kept ({@link TRANSCRIPT_CAP} by default)
 * @returns the transcript, with `cut` set when part of it was left out
 */
export function capTranscript(
  transcript: Transcript,
  cap: { cues: number; characters: number } = TRANSCRIPT_CAP,
): Transcript {
  const { cues } = transcript;
  let characters = 0;
  let kept = 0;
  for (; kept < cues.length && kept < cap.cues; kept++) {
    if (characters + cues[kept]!.text.length > cap.characters) break;
    characters += cues[kept]!.text.length;
  }
  if (kept === cues.length) return transcript;
  const total = cues.reduce((sum, cue) => sum + cue.text.length, 0);
  const keptCues: Cue[] = kept > 0
    ? cues.slice(0, kept)
    : [{ ...cues[0]!, text: cues[0]!.text.slice(0, cap.characters) }];
  const last = keptCues.at(-1)!;
  return {
    ...transcript,
    cues: keptCues,
    cut: { cues: cues.length, characters: total, keptUntilSeconds: last.start + last.duration },
  };
}
