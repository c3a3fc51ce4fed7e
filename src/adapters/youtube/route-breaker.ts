/** @module A circuit breaker per egress route to YouTube: closed, open for a cool-down, half-open. */

/** What is kept about one route; `openUntil` 0 means closed. */
export interface RouteState {
  /** Blocks in a row. */
  failures: number;
  /** When the open breaker allows its next trial (ms since the epoch); 0 when closed. */
  openUntil: number;
  /** The cool-down the breaker last opened for. */
  cooldownMs: number;
}

/** Where route states live: this process's memory, or Redis shared by every instance. */
export interface RouteStateStore {
  get(key: string): Promise<RouteState | undefined>;
  set(key: string, state: RouteState): Promise<void>;
  /** Claims the one trial of a half-open route for `leaseMs`; false when another request holds it. */
  claimTrial(key: string, leaseMs: number): Promise<boolean>;
}

/** Whether a route may be used now; when not, when it may be tried again. */
export type Admission = { ok: true; trial: boolean } | { ok: false; retryAt: number };

/** The breakers of every route, by route key. */
export interface RouteBreaker {
  admit(key: string): Promise<Admission>;
  /** A block was met on the route. */
  blocked(key: string): Promise<void>;
  /** A transcript came through the route. */
  passed(key: string): Promise<void>;
  /** Whether the route was usable when last looked at (metrics, readiness); true when never seen. */
  up(key: string): boolean;
}

const MAX_COOLDOWN_MS = 3_600_000;

/**
 * @param options.store where states are kept
 * @param options.failures blocks in a row that open a closed breaker
 * @param options.cooldownMs the first cool-down (doubled per failed trial, at most an hour)
 * @param options.trialLeaseMs how long one trial holds a half-open route
 * @param options.now the clock (ms since the epoch)
 */
export function createRouteBreaker(
  options: { store: RouteStateStore; failures: number; cooldownMs: number; trialLeaseMs: number; now?: () => number },
): RouteBreaker {
  const now = options.now ?? Date.now;
  const seen = new Map<string, RouteState>();
  const closed = (): RouteState => ({ failures: 0, openUntil: 0, cooldownMs: options.cooldownMs });
  const read = async (key: string): Promise<RouteState> => {
    const state = (await options.store.get(key)) ?? closed();
    seen.set(key, state);
    return state;
  };
  const write = async (key: string, state: RouteState): Promise<void> => {
    seen.set(key, state);
    await options.store.set(key, state);
  };
  return {
    async admit(key) {
      const state = await read(key);
      if (state.openUntil === 0) return { ok: true, trial: false };
      if (now() < state.openUntil) return { ok: false, retryAt: state.openUntil };
      if (await options.store.claimTrial(key, options.trialLeaseMs)) return { ok: true, trial: true };
      return { ok: false, retryAt: now() + Math.min(options.trialLeaseMs, 1_000) };
    },
    async blocked(key) {
      const state = await read(key);
      const at = now();
      if (state.openUntil !== 0 && at >= state.openUntil) {
        const cooldownMs = Math.min(state.cooldownMs * 2, MAX_COOLDOWN_MS);
        return await write(key, { failures: state.failures + 1, openUntil: at + cooldownMs, cooldownMs });
      }
      if (state.openUntil !== 0) return; // already open: a fetch that started before it opened
      const failures = state.failures + 1;
      const open = failures >= options.failures;
      await write(key, { failures, openUntil: open ? at + options.cooldownMs : 0, cooldownMs: options.cooldownMs });
    },
    async passed(key) {
      const state = seen.get(key);
      if (state && state.failures === 0 && state.openUntil === 0) return;
      await write(key, closed());
    },
    up(key) {
      const state = seen.get(key);
      return !state || state.openUntil === 0 || now() >= state.openUntil;
    },
  };
}

/** @returns a store in this process's memory */
export function createMemoryRouteStates(now: () => number = Date.now): RouteStateStore {
  const states = new Map<string, RouteState>();
  const trials = new Map<string, number>();
  return {
    get: async (key) => states.get(key),
    async set(key, state) {
      states.set(key, state);
      trials.delete(key);
    },
    async claimTrial(key, leaseMs) {
      if ((trials.get(key) ?? 0) > now()) return false;
      trials.set(key, now() + leaseMs);
      return true;
    },
  };
}
