/** @module A video's length: the seconds an answer keeps, worded as whole minutes or seconds for `video_duration`. */
/**
 * The video's length an answer keeps: YouTube's metadata, else the end of the
 * transcript's last cue.
 *
 * @param seconds the length from YouTube's metadata, if known
 * @param lastCueEndSeconds end of the transcript's last cue, used when metadata has no length
 * @returns the first of the two that is a positive number, or `undefined` when neither is
 */
export function videoSeconds(seconds: number | undefined, lastCueEndSeconds?: number): number | undefined {
  return isUsable(seconds) ? seconds : isUsable(lastCueEndSeconds) ? lastCueEndSeconds : undefined;
}

/**
 * Words a video's length with its unit: whole minutes (rounded down) from
 * 60 seconds on, seconds below that (`"1 minute"` for 1:59).
 *
 * @param seconds the length from YouTube's metadata, if known
 * @param lastCueEndSeconds end of the transcript's last cue, used when metadata has no length
 * @returns e.g. `"5 minutes"`, `"1 minute"`, `"45 seconds"` or `"unknown"`
 */
export function describeDuration(seconds: number | undefined, lastCueEndSeconds?: number): string {
  const known = videoSeconds(seconds, lastCueEndSeconds);
  if (known === undefined) return "unknown";
  const whole = Math.floor(known);
  if (whole >= 60) return plural(Math.floor(whole / 60), "minute");
  return plural(whole, "second");
}

function isUsable(value: number | undefined): value is number {
  return value !== undefined && Number.isFinite(value) && value > 0;
}

function plural(count: number, unit: string): string {
  return `${count} ${unit}${count === 1 ? "" : "s"}`;
}
