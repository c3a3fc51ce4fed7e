/** @module Parses a request budget such as `60/min` into a limit and a window, and reads `RATE_LIMIT`. */
import type { EnvReader } from "./readers.ts";

/** A request budget such as `60/min`: `limit` requests per `windowSeconds`. */
export interface RateLimitSpec {
  limit: number;
  windowSeconds: number;
}

const WINDOWS: Record<string, number> = {
  s: 1,
  sec: 1,
  second: 1,
  m: 60,
  min: 60,
  minute: 60,
  h: 3600,
  hour: 3600,
  d: 86400,
  day: 86400,
};

/**
 * @param text e.g. `60/min`, `1000/day`, `5/s`
 * @returns the budget, or undefined when `text` is not of that form
 */
export function parseRateLimit(text: string): RateLimitSpec | undefined {
  const match = /^\s*(\d{1,9})\s*\/\s*([a-z]+)\s*$/i.exec(text);
  if (!match) return undefined;
  const limit = Number(match[1]);
  const windowSeconds = WINDOWS[match[2]!.toLowerCase()];
  return windowSeconds && limit > 0 ? { limit, windowSeconds } : undefined;
}

/**
 * Every key's limit when `RATE_LIMIT` is unset: a second's worth of sustained requests, with a minute's burst.
 * Each uncached request is upstream calls (YouTube, the LLM) the whole service shares, so one key left unlimited
 * can get the server blocked for everyone (docs/decisions.md, "A default rate limit per key").
 */
export const DEFAULT_RATE_LIMIT: Readonly<RateLimitSpec> = { limit: 60, windowSeconds: 60 };

/** The `RATE_LIMIT` value that turns the default off: keys without their own limit are then unlimited. */
export const NO_RATE_LIMIT = "none";

/** `RATE_LIMIT`: every key's default limit; {@link DEFAULT_RATE_LIMIT} when unset, none when `none`. */
export function readRateLimit(read: EnvReader): RateLimitSpec | undefined {
  const value = read.raw("RATE_LIMIT");
  if (value === undefined) return { ...DEFAULT_RATE_LIMIT };
  if (value.toLowerCase() === NO_RATE_LIMIT) return undefined;
  const spec = parseRateLimit(value);
  if (!spec) {
    read.fail(
      `RATE_LIMIT must look like 60/min, 10/s, 500/hour or 1000/day, or be none: current value is ${
        JSON.stringify(value)
      }`,
    );
  }
  return spec;
}
