/** @module One answer's model calls: bounded concurrency, shared retry budget, summed usage, cancellation. */
import type { TokenCounter } from "../../../domain/reading/chunking.ts";
import type { AnswerUsage } from "../../../domain/ports.ts";
import { estimateTokens } from "../../../domain/reading/tokens.ts";
import type { CallPart, Reservation } from "../budget/reservation.ts";
import type { Completer, OnText } from "./completer.ts";
import type { ReasoningRoom } from "../models/reasoning.ts";
import type { ChatMessage } from "./chat-message.ts";
import { backoffMs, createRetryBudget, type RetryBudget, sleep } from "./retry.ts";
import { type CallContext, callInTurn } from "./budgeted-call.ts";

/** The state of one answer's calls: bound on concurrency, shared retry budget, summed usage, cancellation. */
export interface Run {
  /**
   * Makes one call, waiting for a free slot first; with `onText`, the answer is streamed to it.
   *
   * @param part where the call stands in its plan (see `Reservation.admit`)
   */
  call(
    messages: ChatMessage[],
    maxTokens: number,
    onText?: OnText,
    part?: CallPart,
  ): Promise<string>;
  /** Runs `work` on every item; the first failure cancels the calls still running. */
  all<T, R>(items: readonly T[], work: (item: T, index: number) => Promise<R>): Promise<R[]>;
  /** Takes the counter as calibrated now for the plan made again after a `StalePlanError`. */
  replan(): void;
  /** Token counts over every call so far. */
  readonly usage: AnswerUsage;
  /** Counts tokens as the provider does, as far as it has been learnt (see `TokenCalibration`). */
  readonly count: TokenCounter;
  /** Tokens each call adds to its `max_tokens` for the model's reasoning (0 for a model that does not reason). */
  readonly reasoningRoom: number;
}

export interface RunOptions {
  completer: Completer;
  /** Most calls in flight at once. */
  concurrency: number;
  retryBudgetMs: number;
  signal?: AbortSignal;
  /** The request's place in the provider's budget; every call is admitted through it. */
  reservation?: Reservation;
  /** Most 429s one call waits out before the request gives up (`LLM_MAX_RETRIES`). */
  maxRateRetries?: number;
  /** The request's deadline (clock ms): a 429's wait that does not fit it ends the request at once. */
  deadline?: number;
  /** Time a call needs to run (ms): a call must start that long before the deadline. */
  callAllowanceMs?: () => number;
  /** The calibrated token counter the request is planned with, and where each call's real count is reported. */
  count?: TokenCounter;
  onCounted?: (estimated: number, counted: number) => void;
  /** The counter as calibrated now, for what a call takes from the budget (it may have learnt since the plan). */
  liveCount?: () => TokenCounter;
  /** The run calls this with how long each answered call took. */
  onAnswered?: (ms: number) => void;
  /** Room for a reasoning model's reasoning, added to every call's `max_tokens` and learnt from its answers. */
  reasoning?: ReasoningRoom;
  /**
   * Whether a 429 for the provider's day is waited out when it fits the deadline (true by default); false in a chain
   * of models, where the next model serves at once instead.
   */
  waitsOutDay?: boolean;
}

/** @returns a fresh run for one answer */
export function createRun(options: RunOptions): Run {
  const usage: AnswerUsage = { calls: 0, inputTokens: 0, outputTokens: 0 };
  const retryBudget: RetryBudget = createRetryBudget(options.retryBudgetMs);
  // A failed batch (see `all`) cancels its own calls only: a plan made again runs under a fresh signal.
  let cancel = new AbortController();
  let signal = options.signal ? AbortSignal.any([options.signal, cancel.signal]) : cancel.signal;
  const slots = createSlots(options.concurrency);

  let count = options.count ?? estimateTokens;
  const planned = count;
  let recounted = false;
  /**
   * The plan, cut down for want of tokens, was counted before the first answers calibrated the count, and it has moved
   * by more than RECOUNT_RATIO since (once).
   */
  const stalePlan = () => {
    if (recounted || !options.liveCount || count !== planned || !options.reservation?.reduced) return false;
    const sample = "the quick brown fox jumps over the lazy dog ".repeat(40);
    const ratio = planned(sample) / options.liveCount()(sample);
    if (ratio < RECOUNT_RATIO && ratio > 1 / RECOUNT_RATIO) return false;
    recounted = true;
    return true;
  };
  const latestStart = () => (options.deadline ?? Number.POSITIVE_INFINITY) - (options.callAllowanceMs?.() ?? 0);
  const context: CallContext = {
    completer: options.completer,
    reservation: options.reservation,
    reasoning: options.reasoning,
    maxRateRetries: options.maxRateRetries ?? 2,
    retryBudget,
    usage,
    onAnswered: options.onAnswered,
    onCounted: options.onCounted,
    chargeCount: () => options.liveCount?.() ?? count,
    latestStart,
    stalePlan,
    /**
     * Waits what a 429 names when that and the call still fit the deadline
     * (others hold back for a while); with no wait named, the usual backoff
     * within the retry budget.
     */
    async waitOut(retryAfterMs, attempt, error) {
      if (options.waitsOutDay === false && error.report.dayRetryAfterMs !== undefined) throw error.error;
      const fits = retryAfterMs === undefined
        ? retryBudget.take(backoffMs(attempt))
        : Date.now() + retryAfterMs < latestStart();
      if (!fits) throw error.error;
      await sleep(retryAfterMs ?? backoffMs(attempt), signal);
    },
  };
  return {
    usage,
    get count() {
      return count;
    },
    get reasoningRoom() {
      return options.reasoning?.tokens ?? 0;
    },
    async call(messages, maxTokens, onText, part) {
      const callSignal = signal;
      return await slots.use(() => callInTurn(context, { messages, maxTokens, onText, part, signal: callSignal }));
    },
    async all(items, work) {
      try {
        return await Promise.all(items.map(work));
      } catch (error) {
        cancel.abort(error);
        cancel = new AbortController();
        signal = options.signal ? AbortSignal.any([options.signal, cancel.signal]) : cancel.signal;
        throw error;
      }
    },
    replan() {
      count = options.liveCount?.() ?? count;
    },
  };
}

/** How far the calibrated count may move from the plan's before the plan is made again (once). */
const RECOUNT_RATIO = 1.1;

/** A counting semaphore. */
function createSlots(size: number): { use<T>(work: () => Promise<T>): Promise<T> } {
  let free = Math.max(1, size);
  const waiting: (() => void)[] = [];
  return {
    async use(work) {
      if (free > 0) free--;
      else await new Promise<void>((resolve) => waiting.push(resolve));
      try {
        return await work();
      } finally {
        const next = waiting.shift();
        if (next) next();
        else free++;
      }
    },
  };
}
