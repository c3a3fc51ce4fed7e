/** @module Times each YouTube call and reports how it ended to the metrics. */
import { isAppError } from "../../domain/errors.ts";
import { isRetired } from "./retired-client.ts";

/** Which YouTube request a call is: the InnerTube player, the watch page, or a caption track. */
export type YoutubeCall = "player" | "watch_page" | "caption";

/** How a YouTube call ended, as operators count it (`retired`: YouTube refused the client identity, not the video). */
export type YoutubeOutcome = "ok" | "blocked" | "unavailable" | "retired" | "timeout" | "error";

/** The source calls this once each YouTube call has ended (metrics); it must not throw. */
export type YoutubeObserver = (call: YoutubeCall, outcome: YoutubeOutcome, seconds: number) => void;

/**
 * Runs one YouTube call (the request and the reading of its answer) and
 * tells `observer` how it ended, so a bot check in a 200 counts as blocked
 * and an unavailable video as unavailable, not as ok.
 *
 * @param observer where the outcome goes; the call runs unobserved without one
 * @param call the call's kind
 * @param work the request and the reading of its body
 * @param now a monotonic clock in milliseconds
 * @returns what `work` returns
 * @throws what `work` throws
 */
export async function observeCall<T>(
  observer: YoutubeObserver | undefined,
  call: YoutubeCall,
  work: () => Promise<T>,
  now: () => number = performance.now.bind(performance),
): Promise<T> {
  if (!observer) return await work();
  const started = now();
  try {
    const value = await work();
    observer(call, "ok", (now() - started) / 1000);
    return value;
  } catch (error) {
    observer(call, youtubeOutcome(error), (now() - started) / 1000);
    throw error;
  }
}

/** @returns the outcome a failed call counts as */
export function youtubeOutcome(error: unknown): YoutubeOutcome {
  if (isRetired(error)) return "retired";
  if (isAppError(error, "upstream_blocked")) return "blocked";
  if (isAppError(error, "upstream_timeout")) return "timeout";
  if (
    isAppError(error, "video_unavailable") || isAppError(error, "video_age_restricted") ||
    isAppError(error, "video_unplayable")
  ) return "unavailable";
  return "error";
}
