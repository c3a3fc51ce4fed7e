/** @module The provider's token and request limits modelled as two evenly refilling token buckets. */
/** The provider's per-window limits, as learnt so far. */
export interface Limits {
  tokensPerWindow: number;
  requestsPerWindow: number;
}

/** The state of both budgets (tokens and requests) at `at`. */
export interface BucketState {
  tokens: number;
  requests: number;
  /** Clock reading (ms) the levels are true at. */
  at: number;
  /** Nothing is admitted before this clock reading (a 429's `retry-after`). */
  blockedUntil: number;
}

/**
 * The provider's limits modelled as two token buckets that refill evenly
 * over the window and hold at most one window's worth: what Groq's
 * `x-ratelimit-reset-*` headers describe. Pure functions of the state.
 */
export const bucket = {
  /** @returns the state at `now`, refilled since it was last true */
  refill(state: BucketState, limits: Limits, windowMs: number, now: number): BucketState {
    const elapsed = Math.max(0, now - state.at);
    return {
      tokens: Math.min(limits.tokensPerWindow, state.tokens + (elapsed * limits.tokensPerWindow) / windowMs),
      requests: Math.min(limits.requestsPerWindow, state.requests + (elapsed * limits.requestsPerWindow) / windowMs),
      at: Math.max(now, state.at),
      blockedUntil: state.blockedUntil,
    };
  },

  /** @returns ms from `state.at` until `tokens` and one request are both available (0: now) */
  waitFor(state: BucketState, limits: Limits, windowMs: number, tokens: number): number {
    const tokenWait = ((tokens - state.tokens) * windowMs) / limits.tokensPerWindow;
    const requestWait = ((1 - state.requests) * windowMs) / limits.requestsPerWindow;
    return Math.max(0, Math.ceil(Math.max(tokenWait, requestWait, state.blockedUntil - state.at)));
  },

  /** @returns a full bucket at `now` */
  full(limits: Limits, now: number): BucketState {
    return { tokens: limits.tokensPerWindow, requests: limits.requestsPerWindow, at: now, blockedUntil: 0 };
  },
};
