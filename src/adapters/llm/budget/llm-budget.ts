/** @module The LLM budget every model call passes through, shared fairly per minute and per day. */
import type { BudgetStore } from "./budget-store.ts";
import { createFairClock, dayRoom, type FairClock, holderShare } from "./fair-share.ts";
import type { Claim } from "./admission.ts";
import { createFairLine, type FairLine } from "./fair-line.ts";
import { createFirstAnswer, type FirstAnswer } from "./first-answer.ts";
import { createHeaderlessRule, type HeaderlessRule, PROVISIONAL_LIMITS } from "./headerless.ts";
import type { Available, BudgetObserver, LlmBudget, PlanChoice, Reservation } from "./reservation.ts";

export type { BudgetObserver, LlmBudget, Reservation } from "./reservation.ts";

/**
 * The LLM budget every call passes through, shared fairly between requests.
 * Planning: a request may plan on its max-min fair share of what the window
 * gives before its deadline (what each request was served already counts
 * in its share): what others hold counts only up to that share,
 * except the part of their plans they cannot do without (a map-reduce can
 * leave parts out; a one-call answer cannot).
 * Admission, and refusal within a second of a call's deadline going out of
 * reach: see `createFairLine`. Answers teach the limits (see
 * `createHeaderlessRule` for those stating none); a plan made on a token
 * limit since contradicted is found stale once (`StalePlanError`).
 *
 * @param options.store where the budget is kept (memory, or Redis for all instances)
 * @param options.now clock in ms; `options.sleep` waits (both swappable in tests)
 * @param options.headerless what answers stating no limits teach (by default: several in a row unpace)
 */
export function createLlmBudget(
  options: {
    store: BudgetStore;
    now?: () => number;
    sleep?: (ms: number) => Promise<void>;
    observer?: BudgetObserver;
    headerless?: HeaderlessRule;
  },
): LlmBudget {
  const { store, observer } = options;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const claims = new Map<number, Claim>();
  const clock = createFairClock();
  const budget: SharedBudget = {
    store,
    now,
    sleep,
    observer,
    claims,
    clock,
    line: createFairLine({ store, claims, clock, now, sleep, observer }),
    first: createFirstAnswer(),
    headerless: options.headerless ??
      createHeaderlessRule({ assumed: PROVISIONAL_LIMITS }),
    planning: Promise.resolve(),
  };
  let nextSeq = 0;
  return {
    get queueLength() {
      return budget.line.length;
    },
    open: (deadline, holder) => openReservation(budget, nextSeq++, deadline, holder),
  };
}

/** What every request's reservation in one budget shares. */
interface SharedBudget {
  store: BudgetStore;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  observer?: BudgetObserver;
  /** The open requests' claims, by request sequence number. */
  claims: Map<number, Claim>;
  clock: FairClock;
  line: FairLine;
  first: FirstAnswer;
  headerless: HeaderlessRule;
  /** The plan being made: plans are made one at a time, in the order asked (see `Reservation.plan`). */
  planning: Promise<unknown>;
}

/** Request `seq`'s place in the budget, from `open` to `close` (see `Reservation`). */
function openReservation(budget: SharedBudget, seq: number, deadline: number, holder?: string): Reservation {
  const { store, line, first, now, observer } = budget;
  const claim: Claim = { held: 0, firm: 0, served: 0, last: 0, waitedMs: 0, ...(holder !== undefined && { holder }) };
  budget.claims.set(seq, claim);
  return {
    deadline,
    get waitedMs() {
      return claim.waitedMs;
    },
    get stale() {
      return line.takeStale(claim);
    },
    get reduced() {
      return claim.reduced === true;
    },
    available: (by) => availableTo(budget, seq, by),
    hold(tokens) {
      claim.held = tokens;
      claim.firm = tokens;
    },
    plan: (by, choose) => planAlone(budget, { seq, claim }, by, choose),
    admit(tokens, signal, latestStart = deadline, part = {}) {
      // A key with m open requests gives each 1/m of one request's pace: the key as a whole keeps one place in
      // the line, and its own requests stay fair to each other.
      const span = tokens * requestsOfHolder(budget.claims, claim);
      const tag = budget.clock.tag(span, claim.last);
      claim.last = tag;
      return new Promise<void>((resolve, reject) =>
        line.enqueue({
          seq,
          tokens,
          deadline: Math.min(deadline, latestStart),
          tokensAfter: part.tokensAfter ?? 0,
          optional: part.optional ?? false,
          part: part.tokensAfter !== undefined,
          tag,
          span,
          signal,
          since: now(),
          resolve,
          reject,
        })
      );
    },
    async settle(taken, charged, report, refused = false) {
      const overcharged = charged !== undefined && charged < taken ? taken - charged : 0;
      const { learn, known } = budget.headerless.judge(report, refused);
      // Given back and learnt in one call to the store, which returns the budget then: no other call to read it.
      const settled = overcharged > 0 || learn || observer ? await store.settle(overcharged, learn) : undefined;
      if (learn && settled) line.knownTpm = settled.limits.tokensPerWindow;
      if (known) first.learn();
      // The limits may have changed: waking the line makes its waiters check the budget now, not after their wait.
      line.wake();
      if (observer && settled) observer.remaining(settled.tokens);
    },
    async unsent(tokens) {
      claim.served = Math.max(0, claim.served - tokens);
      await store.give(tokens).catch(() => undefined);
      line.wake();
    },
    close() {
      budget.claims.delete(seq);
      first.end(seq);
      line.wake();
    },
  };
}

/** What request `seq` may plan on before `by` (see `Reservation.available`): the window's share, or the day's. */
async function availableTo(budget: SharedBudget, seq: number, by: number): Promise<Available> {
  const view = await budget.store.peek();
  const now = budget.now();
  const seconds = Math.max(0, by - now - view.blockedMs);
  const refill = (seconds * view.limits.tokensPerWindow) / view.windowMs;
  const minute = holderShare(budget.claims, seq, view.tokens + refill);
  const day = dayRoom(view, by - now);
  if (day === undefined) return { tokens: minute, view };
  // A request may not spend the rest of the day: half of what is left (but a short question's worth).
  const cap = Math.max(Math.floor(day / 2), Math.min(day, Math.floor(view.limits.tokensPerWindow / 2)));
  const share = Math.min(holderShare(budget.claims, seq, day), cap);
  return share < minute ? { tokens: share, view, dayBound: true } : { tokens: minute, view };
}

/**
 * Plans request `seq` alone (see `Reservation.plan`) and holds what the plan chose. A plan cut down (or refused) on
 * limits that are still a guess waits for the first answer to teach the real ones, then is made again.
 */
function planAlone<T>(
  budget: SharedBudget,
  { seq, claim }: { seq: number; claim: Claim },
  by: number,
  choose: (free: Available) => PlanChoice<T>,
): Promise<T> {
  const { line, first } = budget;
  const attempt = async () => {
    try {
      const free = await availableTo(budget, seq, by);
      line.knownTpm = free.view.limits.tokensPerWindow;
      return { choice: choose(free), view: free.view };
    } catch (error) {
      return { error };
    }
  };
  const turn = budget.planning.then(async () => {
    let planned = await attempt();
    if (first.asking && (planned.error !== undefined || planned.choice?.reduced)) {
      await Promise.race([first.done(), budget.sleep(Math.max(0, Math.min(PROBE_WAIT_MS, by - budget.now())))]);
      planned = await attempt();
    }
    if (!planned.choice) throw planned.error;
    claim.held = planned.choice.hold;
    claim.firm = planned.choice.firm ?? planned.choice.hold;
    // Planned again after a stale plan: the new plan is not checked again.
    claim.planTpm = claim.wasStale ? undefined : planned.view.limits.tokensPerWindow;
    claim.reduced = planned.choice.reduced === true;
    first.ask(seq);
    return planned.choice.value;
  });
  budget.planning = turn.catch(() => undefined);
  return turn;
}

/** Longest a request waits for the first answer to teach the provider's limits before planning on the guess. */
const PROBE_WAIT_MS = 10_000;

/** @returns how many open requests `claim`'s holder has (1 for a request without one) */
function requestsOfHolder(claims: ReadonlyMap<number, Claim>, claim: Claim): number {
  if (claim.holder === undefined) return 1;
  let count = 0;
  for (const other of claims.values()) if (other.holder === claim.holder) count++;
  return Math.max(1, count);
}
