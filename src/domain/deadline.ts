/** @module Per-request deadlines: abort signals and the `upstream_timeout` error of work that ran out of time. */
import { linkSignals } from "./linked-signal.ts";
import { AppError, isAppError } from "./errors.ts";

/**
 * A caller's own deadline, or its going away: it stops waiting for shared work (`upstream_timeout` at the deadline).
 */
export function deadline(ms: number, gone?: AbortSignal): { signal: AbortSignal; clear(): void } {
  const linked = linkSignals([gone], { ms, reason: () => timedOut(ms) });
  return { signal: linked.signal, clear: linked.dispose };
}

/** The error of a request that ran out of time. */
export function timedOut(ms: number, cause?: unknown): AppError {
  return new AppError(
    "upstream_timeout",
    `The request took longer than ${ms / 1000} s and was stopped; try again later`,
    { cause },
  );
}

/** Races `work` against `signal`: `upstream_timeout` when the signal ends it first (or the work fails after it). */
export async function withDeadline<T>(work: Promise<T>, signal: AbortSignal, ms: number): Promise<T> {
  let onAbort = (): void => {};
  const expired = new Promise<never>((_, reject) => {
    onAbort = () => reject(timedOut(ms));
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([work, expired]);
  } catch (error) {
    if (isAppError(error)) throw error;
    if (signal.aborted) throw timedOut(ms, error);
    throw error;
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}
