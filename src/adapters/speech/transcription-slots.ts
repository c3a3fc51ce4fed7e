/** @module Bounds how many videos are transcribed at once in this process (each holds its audio in memory). */
import { AppError } from "../../domain/errors.ts";

/** Places for videos being transcribed. */
export interface TranscriptionSlots {
  /**
   * Waits for a place, in arrival order.
   *
   * @returns the function that gives the place back (call it once)
   * @throws {AppError} overloaded when no place frees up before `deadline`
   */
  take(deadline: number, signal?: AbortSignal): Promise<() => void>;
}

/**
 * @param size places (videos at once)
 * @param now clock in ms
 */
export function createTranscriptionSlots(size: number, now: () => number = Date.now): TranscriptionSlots {
  let free = size;
  const waiting: { grant(): void }[] = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next.grant();
    else free++;
  };
  return {
    async take(deadline, signal) {
      if (free > 0) {
        free--;
        return once(release);
      }
      return await new Promise<() => void>((resolve, reject) => {
        const waiter = {
          grant() {
            clearTimeout(timer);
            signal?.removeEventListener("abort", abandon);
            resolve(once(release));
          },
        };
        const leave = (error: AppError) => {
          const at = waiting.indexOf(waiter);
          if (at >= 0) waiting.splice(at, 1);
          signal?.removeEventListener("abort", abandon);
          reject(error);
        };
        const abandon = () =>
          leave(
            new AppError(
              "upstream_timeout",
              "The request ran out of time while waiting to transcribe its audio; try again later",
            ),
          );
        const timer = setTimeout(() => leave(busy()), Math.max(0, deadline - now()));
        signal?.addEventListener("abort", abandon, { once: true });
        waiting.push(waiter);
      });
    },
  };
}

function once(release: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    release();
  };
}

function busy(): AppError {
  return new AppError(
    "overloaded",
    "Too many videos are being transcribed from their audio right now; try again in 30 s",
    { retryAfterSeconds: 30 },
  );
}
