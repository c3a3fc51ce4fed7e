/** @module One answer's model calls: bounded concurrency, shared retry budget, summed usage, cancellation. */
import type { TokenCounter } from "../../../domain/reading/chunking.ts";
import type { AnswerUsage } from "../../../domain/ports.ts";
import { estimateTokens, MESSAGE_OVERHEAD_TOKENS } from "../../../domain/reading/tokens.ts";
import type { Reservation } from "../budget/llm-budget.ts";
import { type CallPart, StalePlanError } from "../budget/reservation.ts";
import { type Completer, type OnText, ProviderLimitError } from "./completer.ts";
import { AppError } from "../../../domain/errors.ts";
import type { ReasoningRoom } from "../models/reasoning.ts";
import type { ChatMessage } from "../planning/prompts.ts";
import { backoffMs, createRetryBudget, type RetryBudget, sleep } from "./retry.ts";

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
  /** Told how long each answered call took. */
  onAnswered?: (ms: number) => void;
  /** Room for a reasoning model's reasoning, added to every call's `max_tokens` and learnt from its answers. */
  reasoning?: ReasoningRoom;
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
  /** When a call may start at the latest: time enough left to run it before the deadline. */
  const latestStart = () => (options.deadline ?? Number.POSITIVE_INFINITY) - (options.callAllowanceMs?.() ?? 0);
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
  /**
   * Waits what a 429 names when that and the call still fit the deadline
   * (others hold back for at most SHARED_BLOCK_MS); with no wait named, the
   * usual backoff within the retry budget.
   */
  const waitOut = async (retryAfterMs: number | undefined, attempt: number, error: ProviderLimitError) => {
    const fits = retryAfterMs === undefined
      ? retryBudget.take(backoffMs(attempt))
      : Date.now() + retryAfterMs < latestStart();
    if (!fits) throw error.error;
    await sleep(retryAfterMs ?? backoffMs(attempt), signal);
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
      return await slots.use(async () => {
        // Only the parts of a plan (map calls) find it stale: a plan's single or last call, or a rewrite, go as
        // planned.
        if (part && stalePlan()) throw new StalePlanError();
        // The calibration is learnt on transcript-heavy prompts; other shapes may count a little more: what is not
        // charged comes back.
        const prompt = Math.ceil(promptTokens(messages, options.liveCount?.() ?? count) * CHARGE_MARGIN);
        // A reasoning model's reasoning counts against max_tokens: the call has room for it besides its answer.
        let sentMax = maxTokens + (options.reasoning?.tokens ?? 0);
        let taken = prompt + sentMax;
        let widened = false;
        const { reservation } = options;
        let refused: ProviderLimitError | undefined;
        for (let refusals = 0;; refusals++) {
          // After a 429, a turn that cannot come before the deadline is the provider's limit outlasting it.
          await reservation?.admit(taken, callSignal, latestStart(), part).catch((error) => {
            throw refused ? refused.error : error;
          });
          // The turn may come after the first answers recalibrated the count: then the plan is made again before this
          // is sent.
          if (part && stalePlan()) {
            await reservation?.unsent(taken);
            throw new StalePlanError();
          }
          usage.calls++;
          try {
            const sent = performance.now();
            const completion = await options.completer.complete({
              messages,
              maxTokens: sentMax,
              signal: callSignal,
              retryBudget,
              onText,
            });
            options.onAnswered?.(performance.now() - sent);
            await reservation?.settle(
              taken,
              completion.inputTokens ? completion.inputTokens + sentMax : undefined,
              completion.limits,
            );
            if (completion.inputTokens) options.onCounted?.(promptTokens(messages), completion.inputTokens);
            usage.inputTokens += completion.inputTokens || promptTokens(messages);
            usage.outputTokens += completion.outputTokens || estimateTokens(completion.text);
            if (!completion.cutShort) {
              options.reasoning?.observe(completion.reasoningTokens ?? 0);
              return completion.text;
            }
            // Its reasoning took all the room: asked once more with more, in its turn (the deadline and budget hold).
            if (widened || !options.reasoning) throw cutShortError();
            widened = true;
            sentMax = maxTokens + options.reasoning.after({
              reasoningTokens: completion.reasoningTokens ?? completion.outputTokens,
              maxTokens: sentMax,
            });
            taken = prompt + sentMax;
            refusals--;
            continue;
          } catch (error) {
            if (!(error instanceof ProviderLimitError)) throw error;
            // A refused call was not charged: give its tokens back, then take the provider's word for the level.
            const { retryAfterMs, ...level } = error.report;
            // Every request holds back for a while (no stampede); this one waits the whole retry-after, if it fits.
            // A spent day blocks the day's budget instead (`dayRetryAfterMs`), for as long as the provider said.
            const block = retryAfterMs === undefined || level.dayRetryAfterMs !== undefined
              ? undefined
              : Math.min(retryAfterMs, SHARED_BLOCK_MS);
            await reservation?.settle(taken, 0, { ...level, retryAfterMs: block }, true);
            refused = error;
            if (error.kind === "size") throw error;
            if (!reservation || refusals >= (options.maxRateRetries ?? 2)) throw error.error;
            // The refusal stated other limits than the plan's: planned again at once, not after waiting.
            if (part && reservation.stale) throw new StalePlanError();
            await waitOut(retryAfterMs, refusals, error);
          }
        }
      });
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

/** A reasoning model spent all its room reasoning twice: nothing to answer with. */
function cutShortError(): AppError {
  return new AppError(
    "upstream_error",
    "The language model spent its whole answer on reasoning and wrote nothing; try again later",
  );
}

/** How far the calibrated count may move from the plan's before the plan is made again (once). */
const RECOUNT_RATIO = 1.1;

/**
 * Margin on a call's calibrated prompt count when it is taken from the budget (the rest is given back on the answer).
 */
export const CHARGE_MARGIN = 1.05;

/** Longest that a 429's retry-after holds back the other requests (the one refused waits it all, when it fits). */
const SHARED_BLOCK_MS = 10_000;

/** @returns the estimated input tokens of a call's messages */
export function promptTokens(messages: readonly ChatMessage[], count: TokenCounter = estimateTokens): number {
  return messages.reduce((sum, m) => sum + count(m.content) + MESSAGE_OVERHEAD_TOKENS, 0);
}

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
