/** @module Bounds the work in flight in this process, and each key's share of it, refusing the rest as `overloaded`. */
import { AppError } from "../../domain/errors.ts";
import type { WorkGate } from "../../domain/ports.ts";

/**
 * Admits at most `maxInFlight` works at once, and at most `maxPerHolder` of
 * one holder's (an API key's), and refuses the rest at once with 503
 * `overloaded`, so a burst never becomes an unbounded queue and one key's
 * burst leaves the other keys their room. Work without a holder counts
 * towards the whole bound only.
 *
 * @param options.maxPerHolder one holder's most works at once (`maxInFlight` by default: no share of its own)
 */
export function createMemoryWorkGate(
  options: { maxInFlight: number; maxPerHolder?: number; retryAfterSeconds?: number },
): WorkGate & { readonly inFlight: number } {
  let inFlight = 0;
  const held = new Map<string, number>();
  const maxPerHolder = options.maxPerHolder ?? options.maxInFlight;
  const retryAfterSeconds = options.retryAfterSeconds ?? 2;
  return {
    get inFlight() {
      return inFlight;
    },
    async run(work, holder) {
      if (inFlight >= options.maxInFlight) {
        throw new AppError(
          "overloaded",
          "The server is busy with other requests; retry after the time in the Retry-After header",
          { retryAfterSeconds },
        );
      }
      const own = holder === undefined ? 0 : held.get(holder) ?? 0;
      if (own >= maxPerHolder) {
        throw new AppError(
          "overloaded",
          `This API key already has ${own} requests at work, its share of the server; retry after the time in the ` +
            "Retry-After header, or send fewer at once",
          { retryAfterSeconds },
        );
      }
      inFlight++;
      if (holder !== undefined) held.set(holder, own + 1);
      try {
        return await work();
      } finally {
        inFlight--;
        if (holder !== undefined) {
          const left = held.get(holder)! - 1;
          if (left === 0) held.delete(holder);
          else held.set(holder, left);
        }
      }
    },
  };
}
