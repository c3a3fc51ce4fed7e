/** @module Where the LLM provider's token and request budget is kept, and the in-memory store. */
import type { LimitReport } from "./limits-report.ts";
import { bucket, type BucketState, type Limits } from "./token-bucket.ts";

/** What is free in the provider's budget now, for planning. */
export interface BudgetView {
  tokens: number;
  limits: Limits;
  /** ms until anything may be sent (a 429's `retry-after` still running). */
  blockedMs: number;
  /** The window the limits are per (a minute; tests shorten it). */
  windowMs: number;
}

/**
 * Where the provider's budget is kept: in this process, or in Redis so that
 * every instance using the key shares it (the provider counts the
 * organisation, not the process).
 */
export interface BudgetStore {
  /**
   * Takes `tokens` and one request when both are there, leaving at least
   * `keep` tokens (held for requests ahead in line).
   *
   * @returns 0 when taken, else the ms to wait before they may be
   */
  take(tokens: number, keep?: number): Promise<number>;
  /** Gives back tokens taken beyond what the provider charged. */
  give(tokens: number): Promise<void>;
  /** Aligns the budget with what the provider said. */
  observe(report: LimitReport): Promise<void>;
  peek(): Promise<BudgetView>;
}

/**
 * @param options.limits the limits to assume until the provider states its own
 * @param options.windowMs the provider's window (a minute; tests shorten it)
 * @param options.now clock in ms
 * @returns a budget kept in this process
 */
export function createMemoryBudgetStore(
  options: { limits: Limits; windowMs: number; now?: () => number },
): BudgetStore {
  const now = options.now ?? Date.now;
  let limits = { ...options.limits };
  let state: BucketState = bucket.full(limits, now());
  const current = () => (state = bucket.refill(state, limits, options.windowMs, now()));

  return {
    async take(tokens, keep = 0) {
      // Holding back more than the bucket can ever hold would block forever.
      const wait = bucket.waitFor(
        current(),
        limits,
        options.windowMs,
        tokens + Math.max(0, Math.min(keep, limits.tokensPerWindow - tokens)),
      );
      if (wait === 0) state = { ...state, tokens: state.tokens - tokens, requests: state.requests - 1 };
      return wait;
    },
    async give(tokens) {
      current();
      state = { ...state, tokens: Math.min(limits.tokensPerWindow, state.tokens + tokens) };
    },
    async observe(report) {
      current();
      const learnt = learnLimits(limits, report);
      state = alignState(state, limits, learnt, report, now());
      limits = learnt;
    },
    async peek() {
      const view = current();
      return {
        tokens: view.tokens,
        limits: { ...limits },
        blockedMs: Math.max(0, view.blockedUntil - view.at),
        windowMs: options.windowMs,
      };
    },
  };
}

/** A stated token limit below this is taken for garbage, not a plan: no LLM plan is that small. */
export const MIN_PLAUSIBLE_TOKEN_LIMIT = 1_000;

/** @returns the limits with whatever the report plausibly states in place of what was assumed */
export function learnLimits(limits: Limits, report: LimitReport): Limits {
  return {
    tokensPerWindow: report.tokenLimit && report.tokenLimit >= MIN_PLAUSIBLE_TOKEN_LIMIT
      ? report.tokenLimit
      : limits.tokensPerWindow,
    requestsPerWindow: report.requestLimit && report.requestLimit >= 1 ? report.requestLimit : limits.requestsPerWindow,
  };
}

/**
 * The levels after a report: the provider's remaining figure when it is
 * lower than ours (it also counts other users of the key) or when the limit
 * itself was just learnt (ours was a guess); a learnt limit without a
 * remaining figure moves our level by the difference. Never above the limit.
 */
function alignState(state: BucketState, before: Limits, after: Limits, report: LimitReport, at: number): BucketState {
  const level = (ours: number, theirs: number | undefined, oldCap: number, newCap: number) => {
    const changed = oldCap !== newCap;
    const aligned = theirs === undefined ? ours + (newCap - oldCap) : changed ? theirs : Math.min(ours, theirs);
    return Math.min(newCap, aligned);
  };
  return {
    tokens: level(state.tokens, report.tokensRemaining, before.tokensPerWindow, after.tokensPerWindow),
    requests: level(state.requests, report.requestsRemaining, before.requestsPerWindow, after.requestsPerWindow),
    at,
    blockedUntil: report.retryAfterMs ? Math.max(state.blockedUntil, at + report.retryAfterMs) : state.blockedUntil,
  };
}
