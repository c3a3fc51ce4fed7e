import type { RateLimiter } from "../domain/ports.ts";

/** The limiter when no rate limit is configured: every request is allowed. */
export const unlimitedRateLimiter: RateLimiter = {
  async take() {
    return { allowed: true, remaining: Number.POSITIVE_INFINITY, resetSeconds: 0 };
  },
};
