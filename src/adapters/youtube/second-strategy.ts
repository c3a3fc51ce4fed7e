/** @module Falls back to a second transcript source only when the first could not parse YouTube's answer. */
import { isAppError } from "../../domain/errors.ts";
import type { TranscriptSource } from "../../domain/ports.ts";
import { isUnreadable } from "./unreadable.ts";

/**
 * Tries `second` only when `primary` could not parse what YouTube sent; every
 * other outcome of `primary` (a transcript, or an honest refusal) stands.
 * When `second` fails too, the primary's error is reported, unless the second
 * attempt ran into a timeout or a block, which the caller should know about.
 *
 * @param primary the source trusted first
 * @param second the source asked when the primary's answer was unreadable
 * @returns the combined source
 */
export function withSecondStrategy(primary: TranscriptSource, second: TranscriptSource): TranscriptSource {
  return {
    async fetch(videoId, query) {
      try {
        return await primary.fetch(videoId, query);
      } catch (error) {
        if (!isUnreadable(error)) throw error;
        try {
          return await second.fetch(videoId, query);
        } catch (again) {
          if (isAppError(again, "upstream_timeout") || isAppError(again, "upstream_blocked")) throw again;
          throw error;
        }
      }
    },
  };
}
