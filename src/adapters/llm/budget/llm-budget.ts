import { AppError } from "../../../domain/errors.ts";
import type { BudgetStore } from "./budget-store.ts";
import { createFirstAnswer } from "./first-answer.ts";
import { createHeaderlessRule, type HeaderlessRule } from "./headerless.ts";
import type { BudgetObserver, LlmBudget } from "./reservation.ts";

export type { BudgetObserver, LlmBudget, Reservation } from "./reservation.ts";

/** A call waiting for its turn. */
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
 * @param options.headerless what answers stating no limits teach (by default: several in a row unpace)
 */
export function createLlmBudget(options: { store: BudgetStore; now?: () => number; sleep?: (ms: number) => Promise<void>; observer?: BudgetObserver; headerless?: HeaderlessRule }): LlmBudget {
  const { store, observer } = options;
  const now = options.now ?? Date.now;
  const open = new Map<number, { held: number }>();
  const queue: Waiter[] = [];
  let nextSeq = 0;
  let pumping = false;
  let wake: (() => void) | undefined;
  let planning: Promise<unknown> = Promise.resolve();
  const first = createFirstAnswer();
  const headerless = options.headerless ?? createHeaderlessRule({ assumed: { tokensPerWindow: 6_000, requestsPerWindow: 30 } });
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
            if (first.asking && (planned.error !== undefined || planned.choice?.reduced)) {
              await Promise.race([first.done(), sleep(Math.max(0, Math.min(PROBE_WAIT_MS, by - now())))]);
              planned = await attempt();
            }
            if (!planned.choice) throw planned.error;
            claim.held = planned.choice.hold;
            first.ask(seq);
            return planned.choice.value;
          });
          planning = turn.catch(() => undefined);
          return turn;
        },
        admit(tokens, signal, latestStart = deadline) {
          return new Promise<void>((resolve, reject) => enqueue({ seq, tokens, deadline: Math.min(deadline, latestStart), signal, since: now(), resolve, reject }));
        },
        async settle(taken, charged, report, refused = false) {
          if (charged !== undefined && charged < taken) await store.give(taken - charged);
          const { learn, known } = headerless.judge(report, refused);
          if (learn) await store.observe(learn);
          if (known) first.learn();
          if (observer) observer.remaining((await store.peek()).tokens);
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

function shortOfBudget(waitMs: number): AppError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new AppError("overloaded", `The language model's token budget is used up until after this request's deadline; try again in ${seconds} s`, { retryAfterSeconds: seconds });
}
