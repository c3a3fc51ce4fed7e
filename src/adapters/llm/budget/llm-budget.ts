import { AppError } from "../../../domain/errors.ts";
import type { BudgetStore } from "./budget-store.ts";
import { createFairClock, maxMinShare, waitOn } from "./fair-share.ts";
import { createFirstAnswer } from "./first-answer.ts";
import { createHeaderlessRule, type HeaderlessRule } from "./headerless.ts";
import { StalePlanError, type BudgetObserver, type LlmBudget } from "./reservation.ts";

export type { BudgetObserver, LlmBudget, Reservation } from "./reservation.ts";

/** A call waiting for its turn. */
interface Waiter {
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
interface Claim {
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
}

/**
 * The LLM budget every call passes through, shared fairly between requests.
 * Planning: a request may plan on its max-min fair share of what the window
 * gives before its deadline (what each request was served already counts
 * in its share): what others hold counts only up to that share,
 * except the part of their plans they cannot do without (a map-reduce can
 * leave parts out; a one-call answer cannot).
 * Admission: self-clocked fair queuing by request (see `FairClock`), and
 * a call goes first only when every other call in line can still be served
 * before its own deadline after it (earliest deadline first when none can);
 * a call further back in line that fits now goes ahead of one waiting for
 * the refill on the same terms. A call whose turn
 * cannot come before its deadline, even alone, is refused within a second
 * of that becoming known (the line is looked at again every second, and
 * whenever the limits change), and its tokens are no longer held.
 *
 * @param options.store where the budget is kept (memory, or Redis for all instances)
 * @param options.now clock in ms; `options.sleep` waits (both swappable in tests)
 * @param options.headerless what answers stating no limits teach (by default: several in a row unpace)
 */
export function createLlmBudget(options: { store: BudgetStore; now?: () => number; sleep?: (ms: number) => Promise<void>; observer?: BudgetObserver; headerless?: HeaderlessRule }): LlmBudget {
  const { store, observer } = options;
  const now = options.now ?? Date.now;
  const open = new Map<number, Claim>();
  const queue: Waiter[] = [];
  const clock = createFairClock();
  let nextSeq = 0;
  let pumping = false;
  let wake: (() => void) | undefined;
  let planning: Promise<unknown> = Promise.resolve();
  const first = createFirstAnswer();
  const headerless = options.headerless ?? createHeaderlessRule({ assumed: { tokensPerWindow: 6_000, requestsPerWindow: 30 } });
  let knownTpm: number | undefined;
  /** Whether `claim`'s plan was made on a token limit other than `tpm`; it is so only once. */
  const staleAt = (claim: Claim | undefined, tpm: number | undefined) => claim?.planTpm !== undefined && tpm !== undefined && tpm !== claim.planTpm;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));

  /**
   * A request's max-min fair share of `total`, counting what each has been
   * served already: what the others cannot do without comes off the top,
   * the rest of their claims is shared.
   */
  const shareOf = (seq: number, total: number) => {
    const own = open.get(seq)?.served ?? 0;
    const others = [...open].filter(([other, claim]) => other !== seq && claim.held > 0).map(([, claim]) => claim);
    const firm = others.reduce((sum, claim) => sum + Math.min(claim.firm, claim.held), 0);
    const served = others.reduce((sum, claim) => sum + claim.served, own);
    return maxMinShare(total - firm + served, others.map((claim) => claim.served + claim.held - Math.min(claim.firm, claim.held))) - own;
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

  /** One look at the line: refuses the hopeless, admits at most one call; @returns ms to sleep, 0 to look again at once */
  async function round(): Promise<number> {
    for (const waiter of [...queue]) if (waiter.signal?.aborted) refuse(waiter, waiter.signal.reason);
    const view = await store.peek().catch(() => undefined);
    const at = now();
    const latest = (waiter: Waiter) => waiter.deadline - (view ? (waiter.leave * view.windowMs) / view.limits.tokensPerWindow : 0);
    if (view) {
      knownTpm = view.limits.tokensPerWindow;
      // Earliest deadline first (the line is feasible only if that order is): a call must be servable after the calls due before it that their plans cannot do without.
      let ahead = 0;
      for (const waiter of [...queue].sort((a, b) => latest(a) - latest(b) || fairOrder(a, b))) {
        const claim = open.get(waiter.seq);
        if (waiter.part && staleAt(claim, knownTpm)) {
          claim!.planTpm = undefined;
          claim!.wasStale = true;
          refuse(waiter, new StalePlanError());
          continue;
        }
        const wait = waitOn(view, waiter.tokens, ahead);
        if (waiter.tokens > view.limits.tokensPerWindow || at + wait > latest(waiter)) refuse(waiter, shortOfBudget(waiter.tokens > view.limits.tokensPerWindow ? view.windowMs : wait));
        else if (!waiter.optional) ahead += waiter.tokens;
      }
    }
    // In fair order, but going first must cost every other call the plan cannot do without only time it can afford; when every call would cost another too much, earliest deadline first.
    const harmless = (waiter: Waiter) => !view || queue.every((other) => other === waiter || other.optional || at + waitOn(view, other.tokens, waiter.tokens) <= latest(other));
    const fair = [...queue].sort(fairOrder);
    const line = fair.filter(harmless);
    if (line.length === 0 && fair.length > 0) line.push([...fair].sort((a, b) => latest(a) - latest(b))[0]!);
    let sleepMs = 1_000;
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

  return {
    get queueLength() {
      return queue.length;
    },
    open(deadline) {
      const seq = nextSeq++;
      const claim: Claim = { held: 0, firm: 0, served: 0, last: 0, waitedMs: 0 };
      open.set(seq, claim);
      return {
        deadline,
        get waitedMs() {
          return claim.waitedMs;
        },
        get stale() {
          if (!staleAt(claim, knownTpm)) return false;
          claim.planTpm = undefined;
          claim.wasStale = true;
          return true;
        },
        async available(by) {
          const view = await store.peek();
          const seconds = Math.max(0, by - now() - view.blockedMs);
          const refill = (seconds * view.limits.tokensPerWindow) / view.windowMs;
          return { tokens: shareOf(seq, view.tokens + refill), view };
        },
        hold(tokens) {
          claim.held = tokens;
          claim.firm = tokens;
        },
        plan(by, choose) {
          const attempt = async () => {
            try {
              const free = await this.available(by);
              knownTpm = free.view.limits.tokensPerWindow;
              return { choice: choose(free), view: free.view };
            } catch (error) {
              return { error };
            }
          };
          const turn = planning.then(async () => {
            let planned = await attempt();
            // A plan cut down (or refused) on limits that are still a guess waits for the first answer to teach the real ones.
            if (first.asking && (planned.error !== undefined || planned.choice?.reduced)) {
              await Promise.race([first.done(), sleep(Math.max(0, Math.min(PROBE_WAIT_MS, by - now())))]);
              planned = await attempt();
            }
            if (!planned.choice) throw planned.error;
            claim.held = planned.choice.hold;
            claim.firm = planned.choice.firm ?? planned.choice.hold;
            // Planned again after a stale plan: the new plan is not checked again.
            claim.planTpm = claim.wasStale ? undefined : planned.view.limits.tokensPerWindow;
            first.ask(seq);
            return planned.choice.value;
          });
          planning = turn.catch(() => undefined);
          return turn;
        },
        admit(tokens, signal, latestStart = deadline, part = {}) {
          const tag = clock.tag(tokens, claim.last);
          claim.last = tag;
          return new Promise<void>((resolve, reject) => enqueue({ seq, tokens, deadline: Math.min(deadline, latestStart), leave: part.leave ?? 0, optional: part.optional ?? false, part: part.leave !== undefined, tag, signal, since: now(), resolve, reject }));
        },
        async settle(taken, charged, report, refused = false) {
          if (charged !== undefined && charged < taken) await store.give(taken - charged);
          const { learn, known } = headerless.judge(report, refused);
          if (learn) {
            await store.observe(learn);
            knownTpm = (await store.peek()).limits.tokensPerWindow;
          }
          if (known) first.learn();
          // The limits may have changed: the line is looked at again now, not after the wait it was told.
          wake?.();
          if (observer) observer.remaining((await store.peek()).tokens);
        },
        async unsent(tokens) {
          claim.served = Math.max(0, claim.served - tokens);
          await store.give(tokens).catch(() => undefined);
          wake?.();
        },
        close() {
          open.delete(seq);
          first.end(seq);
          wake?.();
        },
      };
    },
  };
}

/** Longest a request waits for the first answer to teach the provider's limits before planning on the guess. */
const PROBE_WAIT_MS = 10_000;

/** Lowest finish tag first, then arrival. */
function fairOrder(a: { tag: number; seq: number }, b: { tag: number; seq: number }): number {
  return a.tag - b.tag || a.seq - b.seq;
}

function shortOfBudget(waitMs: number): AppError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new AppError("overloaded", `The language model's token budget is used up until after this request's deadline; try again in ${seconds} s`, { retryAfterSeconds: seconds });
}
