/** @module The error of a YouTube response not in the documented shape, and its check. */
import { AppError, isAppError } from "../../domain/errors.ts";

/** Marks a response that was not in the shape YouTube documents (kept as an error's cause, for logs). */
class UnreadableResponse extends Error {
  override name = "UnreadableResponse";
}

/**
 * @param what what YouTube sent, for the caller's message, e.g. `a player response`
 * @param detail what was wrong with it, for logs only
 * @returns a 502 `upstream_error` that {@linkcode isUnreadable} recognises
 */
export function unreadable(what: string, detail: string): AppError {
  return new AppError("upstream_error", `YouTube sent ${what} the service could not read; try again later`, {
    cause: new UnreadableResponse(detail),
  });
}

/** @returns whether `error` says YouTube sent something the primary path could not parse */
export function isUnreadable(error: unknown): boolean {
  return isAppError(error, "upstream_error") && error.cause instanceof UnreadableResponse;
}
