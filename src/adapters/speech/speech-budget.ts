/** @module The speech-to-text budget: audio seconds an hour and requests a minute, on the LLM budget's stores. */
import { AppError } from "../../domain/errors.ts";
import type { BudgetStore } from "../llm/budget/budget-store.ts";
import type { LimitReport } from "../llm/budget/limits-report.ts";

/** What transcriptions take from the provider's limits. */
export interface SpeechBudget {
  /**
   * Takes a video's audio seconds, waiting for them only when they come before `deadline`.
   *
   * @throws {AppError} overloaded (503, Retry-After) at once when they cannot come in time
   */
  takeSeconds(seconds: number, deadline: number, signal?: AbortSignal): Promise<void>;
  /** Gives back seconds taken for audio that was never sent (a failed download). */
  giveSeconds(seconds: number): Promise<void>;
  /**
   * Waits for one upload's turn under the requests-per-minute limit.
   *
   * @throws {AppError} overloaded at once when the turn cannot come before `deadline`
   */
  takeRequest(deadline: number, signal?: AbortSignal): Promise<void>;
  /** Aligns both budgets with what the provider said (headers, a 429's message and `retry-after`). */
  observe(report: LimitReport, message?: string): Promise<void>;
}

/**
 * @param options.seconds a store whose tokens are audio seconds, over an hour's window
 * @param options.requests a store whose tokens are requests (one each), over a minute's window
 * @param options.now clock in ms; `options.sleep` waits (both swappable in tests)
 */
export function createSpeechBudget(
  options: { seconds: BudgetStore; requests: BudgetStore; now?: () => number; sleep?: (ms: number) => Promise<void> },
): SpeechBudget {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));

  async function take(
    store: BudgetStore,
    tokens: number,
    deadline: number,
    what: string,
    signal?: AbortSignal,
  ): Promise<void> {
    for (;;) {
      // A store that fails (Redis down, no fallback) lets the call go: the provider's own 429 still stops it.
      const wait = await store.take(tokens).catch(() => 0);
      if (wait === 0) return;
      if (now() + wait > deadline) throw shortOf(what, wait);
      await sleep(Math.min(wait, 1_000));
      if (signal?.aborted) {
        throw new AppError(
          "upstream_timeout",
          "The request ran out of time while waiting to transcribe its audio; try again later",
          { cause: signal.reason },
        );
      }
    }
  }

  return {
    takeSeconds: (seconds, deadline, signal) =>
      take(options.seconds, Math.ceil(seconds), deadline, "audio seconds", signal),
    giveSeconds: (seconds) => options.seconds.give(Math.ceil(seconds)).catch(() => {}),
    takeRequest: (deadline, signal) => take(options.requests, 1, deadline, "requests", signal),
    async observe(report, message = "") {
      const seconds = /audio seconds|\bASP?[HD]\b/i.test(message) ? audioFigures(message) : {};
      await Promise.all([
        options.seconds.observe({ ...seconds, retryAfterMs: report.retryAfterMs }).catch(() => {}),
        // The requests store counts requests as its tokens, so it learns the request figures as both.
        options.requests.observe({ ...report, tokenLimit: undefined, tokensRemaining: report.requestsRemaining }).catch(
          () => {},
        ),
      ]);
    },
  };
}

/** The figures of `... audio seconds per hour (ASPH): Limit 7200, Used 7150, Requested 60 ...`. */
function audioFigures(message: string): LimitReport {
  const figure = (name: string) => {
    const value = new RegExp(`\\b${name}:?\\s+(\\d+)`, "i").exec(message)?.[1];
    return value === undefined ? undefined : Number(value);
  };
  const limit = figure("Limit");
  const used = figure("Used");
  return {
    tokenLimit: limit,
    tokensRemaining: limit !== undefined && used !== undefined ? Math.max(0, limit - used) : undefined,
  };
}

function shortOf(what: string, waitMs: number): AppError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new AppError(
    "overloaded",
    `The speech-to-text budget (${what}) is used up until after this request's deadline; try again in ${seconds} s`,
    { retryAfterSeconds: seconds },
  );
}
