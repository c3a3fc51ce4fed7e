/** @module The arithmetic of fair admission: max-min shares, finish tags, waits and room on a view of the bucket. */
import type { BudgetView } from "./budget-store.ts";
import { WINDOWS_PER_DAY } from "./token-bucket.ts";

/**
 * The max-min fair share of `total` tokens for one more claimant, next to
 * others that hold `others`: a claim smaller than the equal share keeps all
 * it holds, and what it leaves is split equally between the rest (water
 * filling). The newcomer's demand is taken as unbounded.
 *
 * @returns tokens the newcomer may plan on (never below 0)
 */
export function maxMinShare(total: number, others: readonly number[]): number {
  let left = Math.max(0, total);
  let claimants = others.length + 1;
  for (const held of [...others].sort((a, b) => a - b)) {
    const share = left / claimants;
    if (held >= share) return Math.floor(share);
    left -= held;
    claimants--;
  }
  return Math.floor(left);
}

/**
 * A request's max-min fair share of `total`, counting what each has been
 * served already: what the others cannot do without (`firm`) comes off the
 * top, the rest of their claims is shared.
 *
 * @param claims the open requests' claims, by request sequence number; `seq` is the request asking
 */
export function requestShare(
  claims: ReadonlyMap<number, { held: number; firm: number; served: number }>,
  seq: number,
  total: number,
): number {
  const own = claims.get(seq)?.served ?? 0;
  const others = [...claims].filter(([other, claim]) => other !== seq && claim.held > 0).map(([, claim]) => claim);
  const firm = others.reduce((sum, claim) => sum + Math.min(claim.firm, claim.held), 0);
  const served = others.reduce((sum, claim) => sum + claim.served, own);
  return maxMinShare(
    total - firm + served,
    others.map((claim) => claim.served + claim.held - Math.min(claim.firm, claim.held)),
  ) - own;
}

/**
 * A request's fair share of `total` when shares go to holders (API keys) first: the holders share `total` as
 * {@link requestShare} shares it between requests (a holder's open requests together are one claimant), then a
 * holder's requests share what it gets the same way. A holder sending many requests gets one share between them;
 * a request without a holder is a holder alone. With one holder, it is `requestShare` itself.
 *
 * @param claims the open requests' claims, by request sequence number, each with its holder if known
 * @param seq the request asking
 */
export function holderShare(
  claims: ReadonlyMap<number, { held: number; firm: number; served: number; holder?: string }>,
  seq: number,
  total: number,
): number {
  const holderOf = (at: number) => claims.get(at)?.holder ?? `request ${at}`;
  const asking = holderOf(seq);
  const holders = new Map<string, { held: number; firm: number; served: number }>([[asking, {
    held: 0,
    firm: 0,
    served: 0,
  }]]);
  const own = new Map<number, { held: number; firm: number; served: number }>();
  for (const [at, claim] of claims) {
    const holder = holderOf(at);
    const sum = holders.get(holder) ?? { held: 0, firm: 0, served: 0 };
    holders.set(holder, {
      held: sum.held + claim.held,
      firm: sum.firm + claim.firm,
      served: sum.served + claim.served,
    });
    if (holder === asking) own.set(at, claim);
  }
  const numbered = new Map([...holders].map(([holder, claim], index) => [holder === asking ? -1 : index, claim]));
  return requestShare(own, seq, requestShare(numbered, -1, total));
}

/**
 * @param ms time until the request's last call must start
 * @returns tokens the day's limits give by then (0 when its requests or a block leave none); undefined when the day
 *   sets no known limit
 */
export function dayRoom(view: BudgetView, ms: number): number | undefined {
  const { tokensPerDay, requestsPerDay } = view.limits;
  if (tokensPerDay === undefined && requestsPerDay === undefined) return undefined;
  const dayMs = view.windowMs * WINDOWS_PER_DAY;
  const open = Math.max(0, ms - view.dayBlockedMs);
  if (view.dayBlockedMs > 0 && view.dayBlockedMs >= ms) return 0;
  if (requestsPerDay !== undefined && view.dayRequests < 1 && view.dayRequests + (open * requestsPerDay) / dayMs < 1) {
    return 0;
  }
  if (tokensPerDay === undefined) return undefined;
  return Math.max(0, view.dayTokens + (open * tokensPerDay) / dayMs);
}

/**
 * Self-clocked fair queuing by request: a call's tag is where it would end
 * if every request in line were served at the same rate, so a request that
 * has just had a large call waits behind a newcomer's small one, and no
 * request can get ahead by sending many calls.
 */
export interface FairClock {
  /** @returns the finish tag of a call of `tokens` from a request whose last call ended at tag `last` */
  tag(tokens: number, last: number): number;
  /** A call with `tag` of `tokens` was admitted: the clock moves to its start. */
  served(tag: number, tokens: number): void;
}

/** @returns a fair clock at 0 */
export function createFairClock(): FairClock {
  let virtual = 0;
  return {
    tag: (tokens, last) => Math.max(virtual, last) + tokens,
    served(tag, tokens) {
      virtual = Math.max(virtual, tag - tokens);
    },
  };
}

/**
 * @param extra tokens that others take first
 * @returns ms until the bucket of `view` has `tokens` (after `extra`): 0 when now (the request budget is the store's to
 *    check)
 */
export function waitOn(view: BudgetView, tokens: number, extra = 0): number {
  const tokenWait = ((tokens + extra - view.tokens) * view.windowMs) / view.limits.tokensPerWindow;
  return Math.max(0, Math.ceil(Math.max(tokenWait, view.blockedMs, dayWaitOn(view, tokens, extra))));
}

/**
 * @returns ms until the day's budget of `view` has `tokens` (after `extra`) and a request: 0 when now, or when the
 *   day sets no known limit
 */
export function dayWaitOn(view: BudgetView, tokens: number, extra = 0): number {
  const { tokensPerDay, requestsPerDay } = view.limits;
  const dayMs = view.windowMs * WINDOWS_PER_DAY;
  const tokenWait = tokensPerDay ? ((tokens + extra - view.dayTokens) * dayMs) / tokensPerDay : 0;
  const requestWait = requestsPerDay ? ((1 - view.dayRequests) * dayMs) / requestsPerDay : 0;
  return Math.max(0, Math.ceil(Math.max(tokenWait, requestWait, view.dayBlockedMs)));
}
