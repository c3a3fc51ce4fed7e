/** @module Types of a request's reservation in the LLM budget and of the budget itself. */
import type { BudgetView } from "./budget-store.ts";
import type { LimitReport } from "./limits-report.ts";

/** What a request may plan on (see `Reservation.available`). */
export interface Available {
  tokens: number;
  view: BudgetView;
  /** What the day's limit leaves is less than the window's share: the day decides. */
  dayBound?: boolean;
}

/** One request's place in the provider's budget: its calls are admitted in its turn in the fair line. */
export interface Reservation {
  /** The request's deadline (clock ms). */
  readonly deadline: number;
  /** The plan was made on a token limit other than the one now known (see `StalePlanError`); only once per request. */
  readonly stale: boolean;
  /** The current plan was cut down for want of tokens. */
  readonly reduced: boolean;
  /** Time this request's calls have waited for their turn so far (ms). */
  readonly waitedMs: number;
  /**
   * Tokens free for this request before `by`: its max-min fair share of
   * what the bucket holds and will refill, next to what the other open
   * requests hold.
   */
  available(by: number): Promise<Available>;
  /** Sets aside the plan's tokens, so other requests plan around them (up to its fair share). */
  hold(tokens: number): void;
  /**
   * Plans alone: no other request of this process plans between the look at
   * what is available and the hold, so concurrent requests never plan on the
   * same tokens.
   *
   * @param choose gets what is available before `by`; returns the tokens to hold, its
   *   result, whether the plan is cut down for want of tokens (it may throw for that too),
   *   and `firm`: the part of the hold it cannot do without (all of it by default;
   *   a map-reduce can leave parts out), which others' fair shares never cut into
   */
  plan<T>(by: number, choose: (free: Available) => PlanChoice<T>): Promise<T>;
  /**
   * Waits for the call's turn and takes its tokens.
   *
   * @param latestStart the call must start by then to end before the deadline (the deadline by default)
   * @param part.tokensAfter tokens that must still be had after this call by `latestStart` (calls that follow it)
   * @param part.optional the plan can do without this call: others may go ahead of it even when it then misses its time
   * @throws {AppError} `overloaded` when they cannot be had before the deadline
   */
  admit(tokens: number, signal?: AbortSignal, latestStart?: number, part?: CallPart): Promise<void>;
  /**
   * Gives back what a call was charged less than it took, and learns from
   * the provider's report (see `createHeaderlessRule` for answers stating none).
   *
   * @param refused the provider refused the call (429 or 413)
   */
  settle(taken: number, charged: number | undefined, report: LimitReport, refused?: boolean): Promise<void>;
  /** Gives back the tokens of an admitted call that was not sent. */
  unsent(tokens: number): Promise<void>;
  /** Ends the request's claim on the budget. */
  close(): void;
}

/**
 * The request's plan was made on limits the provider has since contradicted
 * (a fresh process's guess, or limits that changed): it must be planned
 * again before it spends more. Never leaves the writer (see `draftAnswer`).
 */
export class StalePlanError extends Error {
  /** @param read what the plan had read when it was found stale, kept for the next plan */
  constructor(readonly read?: ReadSoFar) {
    super("The plan was made on limits that have changed");
    this.name = "StalePlanError";
  }
}

/** The notes of the parts a stale plan had read, from the start of the transcript. */
export interface ReadSoFar {
  notes: string[];
  /** Seconds into the video up to which the notes read. */
  until: number;
  /** Tokens of the lines read. */
  tokens: number;
}

/** Where a call stands in its plan (see `Reservation.admit`). */
export interface CallPart {
  tokensAfter?: number;
  optional?: boolean;
}

/** What a planner chose (see `Reservation.plan`). */
export interface PlanChoice<T> {
  hold: number;
  value: T;
  reduced?: boolean;
  firm?: number;
}

export interface LlmBudget {
  /**
   * @param deadline clock ms by which the request must be answered
   * @param holder whose request it is (an API key's id): the requests of one holder share one fair share
   */
  open(deadline: number, holder?: string): Reservation;
  /** Calls waiting for their turn. */
  readonly queueLength: number;
}

/** The budget reports its state here, for metrics. */
export interface BudgetObserver {
  /** Tokens left in the window after a call was settled. */
  remaining(tokens: number): void;
  /** Calls waiting for their turn. */
  queued(length: number): void;
  /** How long a call waited for its turn (0 when it did not wait). */
  waited(seconds: number): void;
}
