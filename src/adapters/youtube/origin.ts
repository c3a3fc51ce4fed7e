/** @module Rewrites a URL from a YouTube response onto the configured origin. */
import { AppError } from "../../domain/errors.ts";

/**
 * Rewrites a URL taken from a YouTube response onto the configured origin, so
 * that no request ever goes to a host named by a response (no SSRF).
 *
 * @param url absolute or root-relative URL from YouTube
 * @param origin the configured YouTube origin, e.g. `https://www.youtube.com`
 * @throws {AppError} `upstream_error` when `url` is not a URL at all
 */
export function onOrigin(url: string, origin: string): URL {
  if (!URL.canParse(url, origin)) {
    throw new AppError("upstream_error", "YouTube sent a URL the service could not read; try again later");
  }
  const parsed = new URL(url, origin);
  const target = new URL(origin);
  target.pathname = parsed.pathname;
  target.search = parsed.search;
  return target;
}
