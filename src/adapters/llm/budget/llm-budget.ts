import { AppError } from "../../../domain/errors.ts";
import type { BudgetStore, BudgetView } from "./budget-store.ts";
import type { LimitReport } from "./limits-report.ts";

/** One request's place in the provider's budget: its calls are admitted in its turn, before those of later requests. */
export interface Reservation {
  /** The request's deadline (clock ms). */
  readonly deadline: number;
  /**
   * Tokens free for this request before `by`: what the bucket holds and
   * will refill, less what earlier requests have reserved.
   */
  available(by: number): Promise<{ tokens: number; view: BudgetView }>;
  /** Sets aside the plan's tokens, so later requests plan around them. */
  hold(tokens: number): void;
  /**
   * Plans alone: no other request of this process plans between the look at
   * what is available and the hold, so concurrent requests never plan on the
   * same tokens.
   *
   * @param choose gets what is available before `by`; returns the tokens to hold, its
   *   result, and whether the plan is cut down for want of tokens (it may throw for that too)
   */
  plan<T>(by: number, choose: (free: { tokens: number; view: BudgetView }) => { hold: number; value: T; reduced?: boolean }): Promise<T>;
  /**
   * Waits for the call's turn and takes its tokens.
   *
   * @throws {AppError} `overloaded` when they cannot be had before the deadline
   */
  admit(tokens: number, signal?: AbortSignal): Promise<void>;
  /** Gives back what a call was charged less than it took, and learns from the provider's report. */
  settle(taken: number, charged: number | undefined, report: LimitReport): Promise<void>;
  /** Learns from a refusal (429 or 413). */
  observe(report: LimitReport): Promise<void>;
  /** Ends the request's claim on the budget. */
  close(): void;
}

export interface LlmBudget {
  /** @param deadline clock ms by which the request must be answered */
  open(deadline: number): Reservation;
  /** Calls waiting for their turn, and the longest wait so far, for metrics. */
  readonly queueLength: number;
}

/** Told the budget's state, for metrics. */
export interface BudgetObserver {
  /** Tokens left in the window after a call was settled. */
  remaining(tokens: number): void;
  /** Calls waiting for their turn. */
  queued(length: number): void;
  /** How long a call waited for its turn (0 when it did not wait). */
  waited(seconds: number): void;
}

interface Waiter {
  seq: number;
  tokens: number;
  deadline: number;
  signal?: AbortSignal;
  /** Clock reading when the call joined the line. */
  since: number;
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * The LLM budget every call passes through. Requests line up in arrival
 * order (first come, first served): each holds the tokens its plan needs,
 * and a call is admitted only when the tokens it takes leave what earlier
 * requests still hold. A call whose turn cannot come before its request's
 * deadline is refused at once instead of waiting in vain.
 *
 * @param options.store where the budget is kept (memory, or Redis for all instances)
 * @param options.now clock in ms; `options.sleep` waits (both swappable in tests)
 */
export function createLlmBudget(options: { store: BudgetStore; now?: () => number; sleep?: (ms: number) => Promise<void>; observer?: BudgetObserver }): LlmBudget {
  const { store, observer } = options;
  const now = options.now ?? Date.now;
  const open = new Map<number, { held: number }>();
  const queue: Waiter[] = [];
  let nextSeq = 0;
  let pumping = false;
  let wake: (() => void) | undefined;
  let planning: Promise<unknown> = Promise.resolve();
  // Until the provider has answered once, its limits are a guess: the first request goes
  // ahead on it, and the others plan once that answer has taught the real ones.
  let learnt = false;
  let probe: { seq: number; done: Promise<void>; end(): void } | undefined;
  const learn = () => {
    learnt = true;
    probe?.end();
  };
  const startProbe = (seq: number) => {
    let end = () => {};
    const done = new Promise<void>((resolve) => (end = resolve));
    probe = { seq, done, end: () => ((probe = undefined), end()) };
  };
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));

  const heldAhead = (seq: number) => {
    let sum = 0;
    for (const [other, claim] of open) if (other < seq) sum += claim.held;
    return sum;
  };

  async function pump(): Promise<void> {
    if (pumping) return;
    pumping = true;
    try {
      while (queue.length > 0) {
        const head = queue[0]!;
        if (head.signal?.aborted) {
          queue.shift();
          observer?.queued(queue.length);
          head.reject(head.signal.reason);
          continue;
        }
        const wait = await store.take(head.tokens, heldAhead(head.seq)).catch(() => 0);
        if (queue[0] !== head) continue;
        if (wait === 0) {
          queue.shift();
          observer?.queued(queue.length);
          observer?.waited((now() - head.since) / 1000);
          const claim = open.get(head.seq);
          if (claim) claim.held = Math.max(0, claim.held - head.tokens);
          head.resolve();
        } else if (now() + wait > head.deadline) {
          queue.shift();
          observer?.queued(queue.length);
          head.reject(shortOfBudget(wait));
        } else {
          await Promise.race([sleep(Math.min(wait, 1_000)), new Promise<void>((resolve) => (wake = resolve))]);
        }
      }
    } finally {
      pumping = false;
    }
  }

  function enqueue(waiter: Waiter): void {
    const at = queue.findIndex((other) => other.seq > waiter.seq);
    queue.splice(at < 0 ? queue.length : at, 0, waiter);
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
      const claim = { held: 0 };
      open.set(seq, claim);
      return {
        deadline,
        async available(by) {
          const view = await store.peek();
          const seconds = Math.max(0, by - now() - view.blockedMs);
          const refill = (seconds * view.limits.tokensPerWindow) / view.windowMs;
          return { tokens: Math.floor(view.tokens + refill - heldAhead(seq)), view };
        },
        hold(tokens) {
          claim.held = tokens;
        },
        plan(by, choose) {
          const attempt = async () => {
            try {
              return { choice: choose(await this.available(by)) };
            } catch (error) {
              return { error };
            }
          };
          const turn = planning.then(async () => {
            let planned = await attempt();
            // A plan cut down (or refused) on limits that are still a guess waits for the first answer to teach the real ones.
            if (!learnt && probe && (planned.error !== undefined || planned.choice?.reduced)) {
              await Promise.race([probe.done, sleep(Math.max(0, Math.min(PROBE_WAIT_MS, by - now())))]);
              planned = await attempt();
            }
            if (!planned.choice) throw planned.error;
            claim.held = planned.choice.hold;
            if (!learnt && !probe) startProbe(seq);
            return planned.choice.value;
          });
          planning = turn.catch(() => undefined);
          return turn;
        },
        admit(tokens, signal) {
          return new Promise<void>((resolve, reject) => enqueue({ seq, tokens, deadline, signal, since: now(), resolve, reject }));
        },
        async settle(taken, charged, report) {
          if (charged !== undefined && charged < taken) await store.give(taken - charged);
          await store.observe(report);
          learn();
          if (observer) observer.remaining((await store.peek()).tokens);
        },
        async observe(report) {
          await store.observe(report);
          learn();
        },
        close() {
          open.delete(seq);
          if (probe?.seq === seq) probe.end();
          wake?.();
        },
      };
    },
  };
}

/** Longest a request waits for the first answer to teach the provider's limits before planning on the guess. */
const PROBE_WAIT_MS = 10_000;

function shortOfBudget(waitMs: number): AppError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new AppError("overloaded", `The language model's token budget is used up until after this request's deadline; try again in ${seconds} s`, { retryAfterSeconds: seconds });
}
