/** @module The provider's token and request limits modelled as evenly refilling buckets, per window and per day. */
/** The provider's limits, as learnt so far. */
export interface Limits {
  tokensPerWindow: number;
  requestsPerWindow: number;
  /** The day's limits (Groq's TPD and RPD); undefined: the day sets none that is known. */
  tokensPerDay?: number;
  requestsPerDay?: number;
}

/** The state of the buckets (tokens and requests, the window's and the day's) at `at`. */
export interface BucketState {
  tokens: number;
  requests: number;
  /** Clock reading (ms) the levels are true at. */
  at: number;
  /** Nothing is admitted before this clock reading (a 429's `retry-after`). */
  blockedUntil: number;
  dayTokens: number;
  dayRequests: number;
  /** Nothing is admitted before this clock reading: the day's limit is spent (a TPD or RPD 429). */
  dayBlockedUntil: number;
}

/** A day counts this many windows: the window is a minute, and tests that shorten it shorten the day alike. */
export const WINDOWS_PER_DAY = 1_440;

/**
 * The provider's limits modelled as token buckets that refill evenly over
 * their period and hold at most one period's worth: what Groq's
 * `x-ratelimit-reset-*` headers describe, for the minute and for the day.
 * Pure functions of the state.
 */
export const bucket = {
  /** @returns the state at `now`, refilled since it was last true */
  refill(state: BucketState, limits: Limits, windowMs: number, now: number): BucketState {
    const elapsed = Math.max(0, now - state.at);
    const dayMs = windowMs * WINDOWS_PER_DAY;
    return {
      tokens: Math.min(limits.tokensPerWindow, state.tokens + (elapsed * limits.tokensPerWindow) / windowMs),
      requests: Math.min(limits.requestsPerWindow, state.requests + (elapsed * limits.requestsPerWindow) / windowMs),
      at: Math.max(now, state.at),
      blockedUntil: state.blockedUntil,
      dayTokens: refillTo(state.dayTokens, limits.tokensPerDay, elapsed, dayMs),
      dayRequests: refillTo(state.dayRequests, limits.requestsPerDay, elapsed, dayMs),
      dayBlockedUntil: state.dayBlockedUntil,
    };
  },

  /** @returns ms from `state.at` until `tokens` and one request are both available (0: now) */
  waitFor(state: BucketState, limits: Limits, windowMs: number, tokens: number): number {
    const tokenWait = ((tokens - state.tokens) * windowMs) / limits.tokensPerWindow;
    const requestWait = ((1 - state.requests) * windowMs) / limits.requestsPerWindow;
    const wait = Math.max(tokenWait, requestWait, state.blockedUntil - state.at);
    return Math.max(0, Math.ceil(Math.max(wait, bucket.dayWaitFor(state, limits, windowMs, tokens))));
  },

  /** @returns ms from `state.at` until the day has `tokens` and one request (0: now, or the day sets no limit) */
  dayWaitFor(state: BucketState, limits: Limits, windowMs: number, tokens: number): number {
    const dayMs = windowMs * WINDOWS_PER_DAY;
    const tokenWait = limits.tokensPerDay ? ((tokens - state.dayTokens) * dayMs) / limits.tokensPerDay : 0;
    const requestWait = limits.requestsPerDay ? ((1 - state.dayRequests) * dayMs) / limits.requestsPerDay : 0;
    return Math.max(0, Math.ceil(Math.max(tokenWait, requestWait, state.dayBlockedUntil - state.at)));
  },

  /** @returns the state after one request of `tokens` was taken */
  take(state: BucketState, tokens: number): BucketState {
    return {
      ...state,
      tokens: state.tokens - tokens,
      requests: state.requests - 1,
      dayTokens: state.dayTokens - tokens,
      dayRequests: state.dayRequests - 1,
    };
  },

  /** @returns full buckets at `now` */
  full(limits: Limits, now: number): BucketState {
    return {
      tokens: limits.tokensPerWindow,
      requests: limits.requestsPerWindow,
      at: now,
      blockedUntil: 0,
      dayTokens: limits.tokensPerDay ?? 0,
      dayRequests: limits.requestsPerDay ?? 0,
      dayBlockedUntil: 0,
    };
  },
};

function refillTo(level: number, limit: number | undefined, elapsed: number, periodMs: number): number {
  return limit === undefined ? level : Math.min(limit, level + (elapsed * limit) / periodMs);
}
