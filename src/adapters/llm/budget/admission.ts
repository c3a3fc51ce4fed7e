/** @module Who goes next in the fair line and who is out of reach: judgements on one look at the budget. */
import type { BudgetView } from "./budget-store.ts";
import { dayWaitOn, waitOn } from "./fair-share.ts";
import { dayIsSpent, shortOfBudget } from "./refusals.ts";
import { StalePlanError } from "./reservation.ts";

/** A call waiting for its turn. */
export interface Waiter {
  seq: number;
  tokens: number;
  deadline: number;
  /** Tokens that calls after this one need by `deadline`. */
  tokensAfter: number;
  /** The plan can do without it: it is not protected from others going ahead. */
  optional: boolean;
  /** A part of a plan (a map call): it may find the plan stale. */
  part: boolean;
  /** Finish tag in the fair line (see `FairClock`): lowest goes first. */
  tag: number;
  /** How far the tag moved past its start: `tokens`, times its key's open requests (see `Reservation.admit`). */
  span?: number;
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
  /** Whose request it is (an API key's id): one holder's requests are one claimant (see `holderShare`). */
  holder?: string;
}

/** One look at the budget: what it holds, and when it was seen. */
export interface Look {
  view: BudgetView;
  at: number;
}

/**
 * Earliest deadline first (the line is feasible only if that order is): each call must be servable after the calls due
 * before it that their plans cannot do without. A call that would be servable but for firm calls that joined the line
 * after it keeps its place: those newcomers are refused instead (their plans made again when they may be), so a plan
 * made late, on what it saw then, never pushes out a call that was waiting its turn.
 *
 * @returns the calls to refuse now, and why
 */
export function outOfReach(
  queue: readonly Waiter[],
  claims: ReadonlyMap<number, Claim>,
  look: Look,
): { waiter: Waiter; refusal: Error }[] {
  const refused: { waiter: Waiter; refusal: Error }[] = [];
  const counted: Waiter[] = [];
  let ahead = 0;
  for (const waiter of byLatestStart(queue, look.view)) {
    if (!waiter.optional && !fits(waiter, look, ahead)) {
      for (const newcomer of yielding(waiter, counted, look, ahead)) {
        refused.push({ waiter: newcomer, refusal: newcomerRefusal(newcomer, claims.get(newcomer.seq), look) });
        counted.splice(counted.indexOf(newcomer), 1);
        ahead -= newcomer.tokens;
      }
    }
    const refusal = refusalOf(waiter, claims.get(waiter.seq), look, ahead);
    if (refusal) refused.push({ waiter, refusal });
    else if (!waiter.optional) {
      ahead += waiter.tokens;
      counted.push(waiter);
    }
  }
  return refused;
}

/** Whether `waiter` can start in its time after `ahead` tokens go first. */
function fits(waiter: Waiter, { view, at }: Look, ahead: number): boolean {
  return waiter.tokens <= view.limits.tokensPerWindow &&
    at + waitOn(view, waiter.tokens, ahead) <= latestStart(waiter, view);
}

/**
 * @param counted the firm calls due before `waiter`, counted ahead of it
 * @returns the newest of them that joined the line after `waiter`, as few as let it fit (none when even all of them
 *   do not)
 */
function yielding(waiter: Waiter, counted: readonly Waiter[], look: Look, ahead: number): Waiter[] {
  const newer = counted.filter((other) => other.since > waiter.since).sort((a, b) => b.since - a.since);
  const chosen: Waiter[] = [];
  let freed = 0;
  for (const other of newer) {
    chosen.push(other);
    freed += other.tokens;
    if (fits(waiter, look, ahead - freed)) return chosen;
  }
  return [];
}

/** A newcomer that would push out an earlier call: its plan made again, once, on what is left; else refused. */
function newcomerRefusal(waiter: Waiter, claim: Claim | undefined, { view, at }: Look): Error {
  if (waiter.part && claim && !claim.wasStale) {
    markStale(claim);
    return new StalePlanError();
  }
  const wait = Math.max(0, latestStart(waiter, view) - at) + 1;
  return shortOfBudget(wait);
}

/**
 * @param ahead tokens that the calls due before `waiter` take first
 * @returns why `waiter` cannot be served in its time (its plan may be found stale instead); undefined when it can
 */
function refusalOf(waiter: Waiter, claim: Claim | undefined, { view, at }: Look, ahead: number): Error | undefined {
  if (waiter.part && claim && takeStale(claim, view.limits.tokensPerWindow)) return new StalePlanError();
  const tooLarge = waiter.tokens > view.limits.tokensPerWindow;
  const wait = waitOn(view, waiter.tokens, ahead);
  if (!tooLarge && at + wait <= latestStart(waiter, view)) return undefined;
  if (waiter.part && !waiter.optional && claim && !claim.wasStale && !tooLarge) {
    // A plan's first part squeezed by calls the plan did not see (another instance's, through the shared bucket):
    // planned again, once, on what is left, rather than refused. (Later parts are optional: the plan does without
    // them.)
    markStale(claim);
    return new StalePlanError();
  }
  const dayWait = dayWaitOn(view, waiter.tokens, ahead);
  return dayWait > 0 && dayWait >= wait ? dayIsSpent(dayWait) : shortOfBudget(tooLarge ? view.windowMs : wait);
}

/**
 * Whether `claim`'s plan was made on a token limit other than `tpm`: a lower limit always makes a plan stale, a higher
 * one only a plan that was cut down. It is so only once: the plan is then marked stale.
 */
export function takeStale(claim: Claim, tpm: number | undefined): boolean {
  const stale = claim.planTpm !== undefined && tpm !== undefined &&
    (tpm < claim.planTpm || (tpm > claim.planTpm && claim.reduced === true));
  if (stale) markStale(claim);
  return stale;
}

/** The plan is to be made again, once: the new plan is not checked against the limits. */
function markStale(claim: Claim): void {
  claim.planTpm = undefined;
  claim.wasStale = true;
}

/**
 * The calls to try, in turn: in fair order, those whose going first costs every other call its plan cannot do without
 * only time it can afford; when every call would cost another too much, the one with the earliest latest start.
 */
export function turnOrder(queue: readonly Waiter[], look: Look): Waiter[] {
  const fair = [...queue].sort(fairOrder);
  const harmless = fair.filter((waiter) => isHarmless(waiter, queue, look));
  return harmless.length > 0 ? harmless : byLatestStart(fair, look.view).slice(0, 1);
}

/** Every other firm call in line still starts by its latest start when `waiter` goes first. */
function isHarmless(waiter: Waiter, queue: readonly Waiter[], { view, at }: Look): boolean {
  return queue.every((other) =>
    other === waiter || other.optional ||
    at + waitOn(view, other.tokens, waiter.tokens + firmAhead(queue, view, other, waiter)) <= latestStart(other, view)
  );
}

/** Tokens the firm calls due before `other` take first, `except` aside (the order refusals are judged in). */
function firmAhead(queue: readonly Waiter[], view: BudgetView, other: Waiter, except: Waiter): number {
  const due = latestStart(other, view);
  return queue.reduce(
    (sum, w) => (w !== other && w !== except && !w.optional && latestStart(w, view) < due ? sum + w.tokens : sum),
    0,
  );
}

/** When the call must start at the latest, so that the calls after it in its plan can still be had by its deadline. */
function latestStart(waiter: Waiter, view: BudgetView): number {
  return waiter.deadline - (waiter.tokensAfter * view.windowMs) / view.limits.tokensPerWindow;
}

/** Earliest latest start first, then fair order. */
function byLatestStart(waiters: readonly Waiter[], view: BudgetView): Waiter[] {
  return [...waiters].sort((a, b) => latestStart(a, view) - latestStart(b, view) || fairOrder(a, b));
}

/** Lowest finish tag first, then arrival. */
export function fairOrder(a: { tag: number; seq: number }, b: { tag: number; seq: number }): number {
  return a.tag - b.tag || a.seq - b.seq;
}
