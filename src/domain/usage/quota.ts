/** @module Quotas and the UTC periods they renew over, and the minutes an answer is charged. */
/** What a quota counts: video minutes answered about, or answered requests. */
export type QuotaUnit = "min" | "req";
/** The UTC calendar period a quota renews over. */
export type QuotaPeriod = "day" | "month";

/** A cap on a key's answers, such as `600min/month`. */
export interface Quota {
  limit: number;
  unit: QuotaUnit;
  period: QuotaPeriod;
}

/** An amount of each unit a quota counts. */
export type QuotaAmounts = Record<QuotaUnit, number>;

/** The UTC day and month a request is counted in, as `2026-11-14` and `2026-11`. */
export interface UsagePeriods {
  day: string;
  month: string;
}

const DAY_MS = 86_400_000;

/** @returns the UTC day and month of the instant `ms` (since the epoch) */
export function periodsAt(ms: number): UsagePeriods {
  // Epoch milliseconds count every UTC day as 86,400,000 (no leap seconds).
  const from = ms - (((ms % DAY_MS) + DAY_MS) % DAY_MS);
  const day = new Date(from).toISOString().slice(0, 10);
  return { day, month: day.slice(0, 7) };
}

/** @returns when the UTC period holding the instant `ms` ends (ms since the epoch): the next midnight or 1st */
export function periodEnd(period: QuotaPeriod, ms: number): number {
  const at = new Date(ms);
  return period === "day"
    ? Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + 1)
    : Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1);
}

/**
 * Characters of transcript text charged as one minute of video: about what a minute of normal speech holds (a
 * spoken hour is about 55,000 characters, 900 to 1,000 a minute). A video whose text is denser than speech (a
 * caption track written to be long) is charged its text, not its length: the model reads the text, not the video.
 */
export const CHARACTERS_PER_MINUTE = 1_000;

/**
 * The minutes an answer (or a `get_transcript` page) is charged: the larger of the video's length in whole minutes
 * (rounded down) and its transcript's characters in whole {@link CHARACTERS_PER_MINUTE} (rounded down), at least 1
 * (a video under a minute, or of unknown length). `video_duration` still words the length alone.
 *
 * @param videoSeconds the video's length (see `videoSeconds`); undefined when unknown
 * @param characters the characters of transcript text read (after the cap); undefined when not known yet
 */
export function chargedMinutes(videoSeconds: number | undefined, characters?: number): number {
  return Math.max(
    1,
    Math.floor(wholeOrZero(videoSeconds) / 60),
    Math.floor(wholeOrZero(characters) / CHARACTERS_PER_MINUTE),
  );
}

/** A count's whole part; 0 when unknown or not a finite number. */
function wholeOrZero(value: number | undefined): number {
  return value !== undefined && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}
