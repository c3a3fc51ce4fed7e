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
  /** What the day has left (meaningful only where `limits` states the day's limits). */
  dayTokens: number;
  dayRequests: number;
  /** ms until anything may be sent because the day's limit is spent. */
  dayBlockedMs: number;
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
  /**
   * Takes `tokens` and one request as `take` does (holding none back), in the same step as a look at the budget
   * before it: a caller that judges on the budget before taking (see the fair line) needs one call, not two.
   */
  takeAndLook(tokens: number): Promise<{ wait: number; before: BudgetView }>;
  /** Gives back tokens taken beyond what the provider charged. */
  give(tokens: number): Promise<void>;
  /** Aligns the budget with what the provider said; @returns the budget then (as `peek` would, without another call) */
  observe(report: LimitReport): Promise<BudgetView>;
  peek(): Promise<BudgetView>;
  /**
   * Gives back `tokens` (see `give`), then aligns with the provider's `report` if there is one (see `observe`), in
   * one step; @returns the budget then
   */
  settle(tokens: number, report?: LimitReport): Promise<BudgetView>;
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
  let dayStated = false;
  const current = () => (state = bucket.refill(state, limits, options.windowMs, now()));

  const view = (): BudgetView => {
    const at = current();
    return {
      tokens: at.tokens,
      limits: { ...limits },
      blockedMs: Math.max(0, at.blockedUntil - at.at),
      windowMs: options.windowMs,
      dayTokens: at.dayTokens,
      dayRequests: at.dayRequests,
      dayBlockedMs: Math.max(0, at.dayBlockedUntil - at.at),
    };
  };

  const take = (tokens: number, keep = 0) => {
    // Holding back more than the bucket can ever hold would block forever.
    const wait = bucket.waitFor(
      current(),
      limits,
      options.windowMs,
      tokens + Math.max(0, Math.min(keep, limits.tokensPerWindow - tokens)),
    );
    if (wait === 0) state = bucket.take(state, tokens);
    return wait;
  };
  const give = (tokens: number) => {
    current();
    state = {
      ...state,
      tokens: Math.min(limits.tokensPerWindow, state.tokens + tokens),
      dayTokens: Math.min(limits.tokensPerDay ?? 0, state.dayTokens + tokens),
    };
  };
  const observe = (report: LimitReport) => {
    current();
    dayStated ||= report.dayTokenLimit !== undefined;
    const learnt = learnLimits(limits, report, dayStated ? undefined : options.limits);
    state = alignState(state, limits, learnt, report, now());
    limits = learnt;
    return view();
  };

  return {
    take: async (tokens, keep) => take(tokens, keep),
    async takeAndLook(tokens) {
      const before = view();
      return { wait: take(tokens), before };
    },
    give: async (tokens) => give(tokens),
    observe: async (report) => observe(report),
    peek: async () => view(),
    async settle(tokens, report) {
      if (tokens > 0) give(tokens);
      return report ? observe(report) : view();
    },
  };
}

/** A stated token limit below this is taken for garbage, not a plan: no LLM plan is that small. */
export const MIN_PLAUSIBLE_TOKEN_LIMIT = 1_000;

/**
 * @param assumed the limits assumed at the start, while the day's token limit is still theirs (not yet stated): a
 *   window's token limit stated other than assumed is another plan, whose day the assumption does not describe
 * @returns the limits with whatever the report plausibly states in place of what was assumed
 */
export function learnLimits(limits: Limits, report: LimitReport, assumed?: Limits): Limits {
  const tokensPerWindow = report.tokenLimit && report.tokenLimit >= MIN_PLAUSIBLE_TOKEN_LIMIT
    ? report.tokenLimit
    : limits.tokensPerWindow;
  const otherPlan = assumed !== undefined && tokensPerWindow !== assumed.tokensPerWindow;
  return {
    tokensPerWindow,
    requestsPerWindow: report.requestLimit && report.requestLimit >= 1 ? report.requestLimit : limits.requestsPerWindow,
    tokensPerDay: report.dayTokenLimit && report.dayTokenLimit >= MIN_PLAUSIBLE_TOKEN_LIMIT
      ? report.dayTokenLimit
      : otherPlan
      ? undefined
      : limits.tokensPerDay,
    requestsPerDay: report.dayRequestLimit && report.dayRequestLimit >= 1
      ? report.dayRequestLimit
      : limits.requestsPerDay,
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
  // A day limit learnt for the first time starts from what the provider says is left, else full.
  const dayLevel = (ours: number, theirs: number | undefined, oldCap: number | undefined, newCap: number | undefined) =>
    newCap === undefined ? 0 : level(oldCap === undefined ? newCap : ours, theirs, oldCap ?? newCap, newCap);
  const until = (current: number, ms: number | undefined) => (ms ? Math.max(current, at + ms) : current);
  return {
    tokens: level(state.tokens, report.tokensRemaining, before.tokensPerWindow, after.tokensPerWindow),
    requests: level(state.requests, report.requestsRemaining, before.requestsPerWindow, after.requestsPerWindow),
    at,
    blockedUntil: until(state.blockedUntil, report.retryAfterMs),
    dayTokens: dayLevel(state.dayTokens, report.dayTokensRemaining, before.tokensPerDay, after.tokensPerDay),
    dayRequests: dayLevel(state.dayRequests, report.dayRequestsRemaining, before.requestsPerDay, after.requestsPerDay),
    dayBlockedUntil: until(state.dayBlockedUntil, report.dayRetryAfterMs),
  };
}
