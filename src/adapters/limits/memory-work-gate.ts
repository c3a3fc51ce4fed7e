/** @module Bounds the work in flight in this process, refusing the rest as `overloaded`. */
import { AppError } from "../../domain/errors.ts";
import type { WorkGate } from "../../domain/ports.ts";

/**
 * Admits at most `maxInFlight` works at once and refuses the rest at once
 * with 503 `overloaded`, so a burst never becomes an unbounded queue.
 */
export function createMemoryWorkGate(
  options: { maxInFlight: number; retryAfterSeconds?: number },
): WorkGate & { readonly inFlight: number } {
  let inFlight = 0;
  return {
    get inFlight() {
      return inFlight;
    },
    async run(work) {
      if (inFlight >= options.maxInFlight) {
        throw new AppError(
          "overloaded",
          "The server is busy with other requests; retry after the time in the Retry-After header",
          {
            retryAfterSeconds: options.retryAfterSeconds ?? 2,
          },
        );
      }
      inFlight++;
      try {
        return await work();
      } finally {
        inFlight--;
      }
    },
  };
}
