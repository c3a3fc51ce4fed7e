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
  try {
    return await raceAbort(work, signal, () => timedOut(ms));
  } catch (error) {
    if (isAppError(error)) throw error;
    if (signal.aborted) throw timedOut(ms, error);
    throw error;
  }
}

/**
 * The one race of work against an abort signal: `work`'s outcome, unless `signal` aborts first
 * (or already has), then `stopped(signal)` is thrown. Nothing stays listening on the signal afterwards.
 *
 * @param stopped the error for a signal that ended the wait
 */
export async function raceAbort<T>(
  work: Promise<T>,
  signal: AbortSignal | undefined,
  stopped: (signal: AbortSignal) => unknown,
): Promise<T> {
  if (!signal) return await work;
  if (signal.aborted) {
    // Nobody awaits the work any more: its failure must not surface as an unhandled rejection.
    work.catch(() => {});
    throw stopped(signal);
  }
  let onAbort = (): void => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(stopped(signal));
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([work, aborted]);
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}
