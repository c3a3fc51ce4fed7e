/** @module The line of LLM calls waiting for their turn: fair order, deadline guard, refusal at once. */
import type { BudgetStore } from "./budget-store.ts";
import type { FairClock } from "./fair-share.ts";
import { type Claim, fairOrder, outOfReach, takeStale, turnOrder, type Waiter } from "./admission.ts";
import type { BudgetObserver } from "./reservation.ts";

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

/** What `createFairLine` is given. */
interface FairLineOptions {
  store: BudgetStore;
  claims: Map<number, Claim>;
  clock: FairClock;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  observer?: BudgetObserver;
}

/** A line's calls and what it was given, for the named steps below. */
interface Line {
  queue: Waiter[];
  options: FairLineOptions;
  self: FairLine;
}

/**
 * Admission: self-clocked fair queuing by request (see `FairClock`), and a
 * call goes first only when every call in line that its plan cannot do
 * without can still be served before its own latest start after it
 * (earliest deadline first when none can); a call further back that fits
 * now goes ahead of one waiting for the refill on the same terms. Every
 * round (at least every RECHECK_MS, and at once when woken) the line is checked
 * in earliest-deadline order: a call that cannot be served after the calls
 * due before it is refused then, and its tokens are no longer held.
 *
 * @param options.claims the open requests' claims, by request sequence number
 */
export function createFairLine(options: FairLineOptions): FairLine {
  const queue: Waiter[] = [];
  let pumping = false;
  let wake: (() => void) | undefined;
  const self: FairLine = {
    enqueue,
    get length() {
      return queue.length;
    },
    wake: () => wake?.(),
    takeStale: (claim) => takeStale(claim, self.knownTpm),
  };
  const line: Line = { queue, options, self };

  async function pump(): Promise<void> {
    if (pumping) return;
    pumping = true;
    try {
      while (queue.length > 0) {
        const sleepMs = await round(line);
        if (sleepMs > 0) {
          await Promise.race([options.sleep(sleepMs), new Promise<void>((resolve) => (wake = resolve))]);
        }
      }
    } finally {
      pumping = false;
    }
  }

  function enqueue(waiter: Waiter): void {
    queue.push(waiter);
    options.observer?.queued(queue.length);
    waiter.signal?.addEventListener("abort", () => wake?.(), { once: true });
    wake?.();
    void pump();
  }

  return self;
}

/** Takes a call out of the line, and out of its plan's holding: it was admitted or refused. */
function dismiss({ queue, options }: Line, waiter: Waiter): Claim | undefined {
  queue.splice(queue.indexOf(waiter), 1);
  options.observer?.queued(queue.length);
  const claim = options.claims.get(waiter.seq);
  if (!claim) return undefined;
  claim.held = Math.max(0, claim.held - waiter.tokens);
  if (!waiter.optional) claim.firm = Math.max(0, claim.firm - waiter.tokens);
  return claim;
}

function refuse(line: Line, waiter: Waiter, error: unknown): void {
  dismiss(line, waiter);
  waiter.reject(error);
}

function admit(line: Line, waiter: Waiter): void {
  const { clock, now, observer } = line.options;
  const claim = dismiss(line, waiter);
  clock.served(waiter.tag, waiter.span ?? waiter.tokens);
  const waited = now() - waiter.since;
  observer?.waited(waited / 1000);
  if (claim) {
    claim.served += waiter.tokens;
    claim.waitedMs += waited;
  }
  waiter.resolve();
}

/** One look at the line: refuses the hopeless, admits at most one call; @returns ms to sleep, 0 to look again */
async function round(line: Line): Promise<number> {
  const { queue, options, self } = line;
  for (const waiter of [...queue]) if (waiter.signal?.aborted) refuse(line, waiter, waiter.signal.reason);
  if (queue.length === 1) return await takeAlone(line, queue[0]!);
  const view = await options.store.peek().catch(() => undefined);
  if (!view) return await admitFirstServable(line, [...queue].sort(fairOrder));
  const look = { view, at: options.now() };
  self.knownTpm = view.limits.tokensPerWindow;
  for (const { waiter, refusal } of outOfReach(queue, options.claims, look)) refuse(line, waiter, refusal);
  return await admitFirstServable(line, turnOrder(queue, look));
}

/**
 * A call alone in line has no other to be ordered with or judged against: it takes first, and is judged on the
 * budget as its take found it, which is what a look just before would have seen (one call to the store, not two).
 * Refused though it could take (its plan is stale, or its time is past), it gives the tokens back.
 *
 * @returns ms to sleep before the next look (at most RECHECK_MS), 0 to look again at once
 */
async function takeAlone(line: Line, waiter: Waiter): Promise<number> {
  const { queue, options: { store, claims, now }, self } = line;
  const taken = await store.takeAndLook(waiter.tokens).catch(() => undefined);
  const wait = taken?.wait ?? 0;
  const refusal = taken && queue.includes(waiter)
    ? outOfReach([waiter], claims, { view: taken.before, at: now() })[0]?.refusal
    : undefined;
  if (taken) self.knownTpm = taken.before.limits.tokensPerWindow;
  if (wait === 0 && (refusal || !queue.includes(waiter))) await store.give(waiter.tokens).catch(() => undefined);
  if (refusal) refuse(line, waiter, refusal);
  else if (wait === 0 && queue.includes(waiter)) admit(line, waiter);
  return wait === 0 || refusal ? 0 : Math.min(RECHECK_MS, wait);
}

/**
 * Takes the tokens of the first call in `turns` that the budget can serve now, and admits it.
 *
 * @returns ms to sleep before the next look (at most RECHECK_MS), 0 to look again at once
 */
async function admitFirstServable(line: Line, turns: readonly Waiter[]): Promise<number> {
  const { queue, options: { store } } = line;
  let sleepMs = RECHECK_MS;
  for (const waiter of turns) {
    const wait = await store.take(waiter.tokens).catch(() => 0);
    if (!queue.includes(waiter)) {
      if (wait === 0) await store.give(waiter.tokens).catch(() => undefined);
      return 0;
    }
    if (wait === 0) {
      admit(line, waiter);
      return 0;
    }
    sleepMs = Math.min(sleepMs, wait);
  }
  return turns.length === 0 ? 0 : sleepMs;
}

/**
 * The longest the line sleeps between two looks while calls wait: a call that can no longer be served is refused well
 * within a second, whatever taught it (a lower limit, a 429, a call that took longer).
 */
const RECHECK_MS = 250;
