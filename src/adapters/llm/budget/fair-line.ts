/** @module The line of LLM calls waiting for their turn: fair order, deadline guard, refusal at once. */
import { AppError } from "../../../domain/errors.ts";
import type { BudgetStore } from "./budget-store.ts";
import { dayWaitOn, type FairClock, waitOn } from "./fair-share.ts";
import { type BudgetObserver, StalePlanError } from "./reservation.ts";

/** A call waiting for its turn. */
export interface Waiter {
  seq: number;
  tokens: number;
  deadline: number;
  /** Tokens that calls after this one need by `deadline`. */
  leave: number;
  /** The plan can do without it: it is not protected from others going ahead. */
  optional: boolean;
  /** A part of a plan (a map call): it may find the plan stale. */
  part: boolean;
  /** Finish tag in the fair line (see `FairClock`): lowest goes first. */
  tag: number;
  signal?: AbortSignal;
  /** Clock reading when the call joined the line. */
  since: number;
  resolve(): void;
  reject(error: unknown): void;
}

/** One open request's claim on the budget. */
export interface Claim {
  /** Tokens its plan still holds. */
  held: number;
  /** The part of `held` the plan cannot do without. */
  firm: number;
  /** Tokens its calls took so far. */
  served: number;
  /** Finish tag of its last call. */
  last: number;
  /** Time its calls have waited for their turn, summed (ms). */
  waitedMs: number;
  /** The token limit its plan was made on, until the plan was found stale once. */
  planTpm?: number;
  wasStale?: boolean;
  /** The plan was cut down for want of tokens: larger limits would let it read more. */
  reduced?: boolean;
}

/** The line's operations (see `createFairLine`). */
export interface FairLine {
  /** Puts a call in line; it is resolved in its turn or rejected. */
  enqueue(waiter: Waiter): void;
  readonly length: number;
  /** Looks at the line again now (a call left, the limits changed). */
  wake(): void;
  /** The token limit last seen. */
  knownTpm?: number;
  /**
   * Whether `claim`'s plan was made on a token limit other than the one known; it is so only once (it is then marked
   * stale).
   */
  takeStale(claim: Claim): boolean;
}

/**
 * Admission: self-clocked fair queuing by request (see `FairClock`), and a
 * call goes first only when every call in line that its plan cannot do
 * without can still be served before its own latest start after it
 * (earliest deadline first when none can); a call further back that fits
 * now goes ahead of one waiting for the refill on the same terms. Every
 * round (at least each second, and at once when woken) the line is checked
 * in earliest-deadline order: a call that cannot be served after the calls
 * due before it is refused then, and its tokens are no longer held.
 *
 * @param options.claims the open requests' claims, by request sequence number
 */
export function createFairLine(
  options: {
    store: BudgetStore;
    claims: Map<number, Claim>;
    clock: FairClock;
    now: () => number;
    sleep: (ms: number) => Promise<void>;
    observer?: BudgetObserver;
  },
): FairLine {
  const { store, observer, now, sleep, clock } = options;
  const open = options.claims;
  const queue: Waiter[] = [];
  let pumping = false;
  let wake: (() => void) | undefined;
  /** Lower limits than planned on always make a plan stale; higher ones only a plan that was cut down. */
  const staleAt = (claim: Claim | undefined, tpm: number | undefined) =>
    claim?.planTpm !== undefined && tpm !== undefined &&
    (tpm < claim.planTpm || (tpm > claim.planTpm && claim.reduced === true));
  const markStale = (claim: Claim) => {
    claim.planTpm = undefined;
    claim.wasStale = true;
  };
  const self: FairLine = {
    enqueue,
    get length() {
      return queue.length;
    },
    wake: () => wake?.(),
    takeStale(claim) {
      if (!staleAt(claim, self.knownTpm)) return false;
      markStale(claim);
      return true;
    },
  };

  const leave = (waiter: Waiter) => {
    queue.splice(queue.indexOf(waiter), 1);
    observer?.queued(queue.length);
  };
  const refuse = (waiter: Waiter, error: unknown) => {
    leave(waiter);
    const claim = open.get(waiter.seq);
    if (claim) claim.held = Math.max(0, claim.held - waiter.tokens);
    if (claim && !waiter.optional) claim.firm = Math.max(0, claim.firm - waiter.tokens);
    waiter.reject(error);
  };
  const admitted = (waiter: Waiter) => {
    leave(waiter);
    clock.served(waiter.tag, waiter.tokens);
    const waited = now() - waiter.since;
    observer?.waited(waited / 1000);
    const claim = open.get(waiter.seq);
    if (claim) {
      claim.held = Math.max(0, claim.held - waiter.tokens);
      if (!waiter.optional) claim.firm = Math.max(0, claim.firm - waiter.tokens);
      claim.served += waiter.tokens;
      claim.waitedMs += waited;
    }
    waiter.resolve();
  };

  /**
   * One look at the line: refuses the hopeless, admits at most one call; @returns ms to sleep, 0 to look again at once
   */
  async function round(): Promise<number> {
    for (const waiter of [...queue]) if (waiter.signal?.aborted) refuse(waiter, waiter.signal.reason);
    const view = await store.peek().catch(() => undefined);
    const at = now();
    const latest = (waiter: Waiter) =>
      waiter.deadline - (view ? (waiter.leave * view.windowMs) / view.limits.tokensPerWindow : 0);
    if (view) {
      self.knownTpm = view.limits.tokensPerWindow;
      // Earliest deadline first (the line is feasible only if that order is): a call must be servable after the calls
      // due before it that their plans cannot do without.
      let ahead = 0;
      for (const waiter of [...queue].sort((a, b) => latest(a) - latest(b) || fairOrder(a, b))) {
        const claim = open.get(waiter.seq);
        if (waiter.part && claim && self.takeStale(claim)) {
          refuse(waiter, new StalePlanError());
          continue;
        }
        const wait = waitOn(view, waiter.tokens, ahead);
        if (waiter.tokens > view.limits.tokensPerWindow || at + wait > latest(waiter)) {
          if (
            waiter.part && !waiter.optional && claim && !claim.wasStale && waiter.tokens <= view.limits.tokensPerWindow
          ) {
            // A plan's first part squeezed by calls the plan did not see (another instance's, through the shared
            // bucket): planned again, once, on what is left, rather than refused. (Later parts are optional: the
            // plan does without them.)
            markStale(claim);
            refuse(waiter, new StalePlanError());
            continue;
          }
          const dayWait = dayWaitOn(view, waiter.tokens, ahead);
          refuse(
            waiter,
            dayWait > 0 && dayWait >= wait
              ? dayIsSpent(dayWait)
              : shortOfBudget(waiter.tokens > view.limits.tokensPerWindow ? view.windowMs : wait),
          );
        } else if (!waiter.optional) ahead += waiter.tokens;
      }
    }
    // In fair order, but going first must cost every other call the plan cannot do without only time it can afford;
    // when every call would cost another too much, earliest deadline first.
    // Tokens the firm calls due before `other` take first (the order the refusals above are judged in).
    const firmAhead = (other: Waiter, except: Waiter) =>
      queue.reduce(
        (sum, w) => (w !== other && w !== except && !w.optional && latest(w) < latest(other) ? sum + w.tokens : sum),
        0,
      );
    const harmless = (waiter: Waiter) =>
      !view ||
      queue.every((other) =>
        other === waiter || other.optional ||
        at + waitOn(view, other.tokens, waiter.tokens + firmAhead(other, waiter)) <= latest(other)
      );
    const fair = [...queue].sort(fairOrder);
    const line = fair.filter(harmless);
    if (line.length === 0 && fair.length > 0) line.push([...fair].sort((a, b) => latest(a) - latest(b))[0]!);
    // Looked at again at least every quarter second, so a call that can no longer be served is refused well within
    // the second the contract allows, whatever taught it (a lower limit, a 429, a call that took longer).
    let sleepMs = RECHECK_MS;
    for (const waiter of line) {
      const wait = await store.take(waiter.tokens).catch(() => 0);
      if (!queue.includes(waiter)) {
        if (wait === 0) await store.give(waiter.tokens).catch(() => undefined);
        return 0;
      }
      if (wait === 0) {
        admitted(waiter);
        return 0;
      }
      sleepMs = Math.min(sleepMs, wait);
    }
    return line.length === 0 ? 0 : sleepMs;
  }

  async function pump(): Promise<void> {
    if (pumping) return;
    pumping = true;
    try {
      while (queue.length > 0) {
        const sleepMs = await round();
        if (sleepMs > 0) await Promise.race([sleep(sleepMs), new Promise<void>((resolve) => (wake = resolve))]);
      }
    } finally {
      pumping = false;
    }
  }

  function enqueue(waiter: Waiter): void {
    queue.push(waiter);
    observer?.queued(queue.length);
    waiter.signal?.addEventListener("abort", () => wake?.(), { once: true });
    wake?.();
    void pump();
  }

  return self;
}

/** The longest the line sleeps between two looks while calls wait. */
const RECHECK_MS = 250;

/** Lowest finish tag first, then arrival. */
function fairOrder(a: { tag: number; seq: number }, b: { tag: number; seq: number }): number {
  return a.tag - b.tag || a.seq - b.seq;
}

function shortOfBudget(waitMs: number): AppError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new AppError(
    "overloaded",
    `The language model's token budget is used up until after this request's deadline; try again in ${seconds} s`,
    { retryAfterSeconds: seconds },
  );
}

/**
 * The provider's daily limit cannot serve the call before its deadline: refused as the provider's limit (503
 * `upstream_blocked`), with the time until the day has room again.
 */
export function dayIsSpent(waitMs: number): AppError {
  const seconds = Math.min(86_400, Math.max(1, Math.ceil(waitMs / 1000)));
  return new AppError(
    "upstream_blocked",
    `The language model's daily limit for this server is spent; try again in ${seconds} s`,
    { retryAfterSeconds: seconds },
  );
}
