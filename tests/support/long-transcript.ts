/** @module Generates a transcript of any length, with a planted sentence, as a classic caption body. */
/**
 * A generated transcript of any length, in the classic caption format the
 * fake YouTube serves: a cue every four seconds, about 150 spoken words a
 * minute, one topic per ten minutes, deterministic.
 */
const TOPICS = [
  "battery",
  "keyboard",
  "screen",
  "camera",
  "speakers",
  "processor",
  "storage",
  "software",
  "price",
  "design",
  "charger",
  "stylus",
  "hinge",
  "ports",
  "warranty",
  "display",
  "memory",
  "graphics",
];
const OPENERS = ["So", "Now", "And", "Honestly", "Also", "Next", "Here", "Overall", "Then", "Basically"];
const VERBS = [
  "feels",
  "looks",
  "works",
  "performs",
  "holds up",
  "compares",
  "behaves",
  "stands out",
  "matters",
  "changes",
];
const ENDINGS = [
  "better than I expected",
  "about the same as last year",
  "well in daily use",
  "fine for most people",
  "worse under heavy load",
  "great when travelling",
  "okay for the money",
  "surprisingly well outdoors",
  "nicely with the cover",
  "poorly in direct sunlight",
];

/** The sentence planted in the last minutes, for relevance tests. */
export const NEEDLE = "The secret ingredient of the recipe is smoked paprika from Extremadura.";

export interface GeneratedCue {
  start: number;
  duration: number;
  text: string;
}

/**
 * @param seconds the video's length
 * @param options `needleAt`: seconds where {@linkcode NEEDLE} is said (none by default)
 * @returns the cues
 */
export function generateCues(seconds: number, options: { needleAt?: number } = {}): GeneratedCue[] {
  const cues: GeneratedCue[] = [];
  let state = 42;
  const pick = <T>(list: readonly T[]): T => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return list[state % list.length]!;
  };
  for (let start = 0; start < seconds; start += 4) {
    const topic = TOPICS[Math.floor(start / 600) % TOPICS.length]!;
    const text = options.needleAt !== undefined && start === Math.floor(options.needleAt / 4) * 4
      ? NEEDLE
      : `${pick(OPENERS)} the ${topic} ${pick(VERBS)} ${pick(ENDINGS)}.`;
    cues.push({ start, duration: 4, text });
  }
  return cues;
}

/** @returns the cues as a classic `<transcript><text start dur>` caption body */
export function captionXml(cues: readonly GeneratedCue[]): string {
  const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  const lines = cues.map((cue) => `<text start="${cue.start}" dur="${cue.duration}">${escape(cue.text)}</text>`);
  return `<?xml version="1.0" encoding="utf-8" ?><transcript>${lines.join("")}</transcript>`;
}
