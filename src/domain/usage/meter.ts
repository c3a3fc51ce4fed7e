/** @module The ports of usage metering: the meter every transport calls, and the store it keeps usage in. */
import type { ErrorCode } from "../errors.ts";
import type { CacheLookup, KeyIdentity } from "../ports.ts";
import type { Quota, QuotaAmounts, UsagePeriods } from "./quota.ts";
import type { Spent } from "./account.ts";

/** One key's counts in one period. */
export interface UsageCounts {
  /** Answered requests, cache hits included. */
  requests: number;
  cacheHits: number;
  /** Video minutes answered about (see {@link chargedMinutes}). */
  minutes: number;
  inputTokens: number;
  outputTokens: number;
  /** Speech-to-text audio seconds. */
  sttSeconds: number;
  /** Refused requests, by error code. */
  refused: Record<string, number>;
}

/** A request's line in the ledger: what it adds to its key's counts in the periods it began in. */
export interface LedgerEntry {
  keyId: string;
  periods: UsagePeriods;
  counts: Partial<UsageCounts>;
  /** The holds this entry replaces (their amounts become counts, or are given back for a refusal). */
  holds?: string[];
}

/**
 * Amounts set aside under a key's quotas for a request in flight, granted only when every quota has room:
 * for each quota, what is used (answered, plus every live hold, this one's included) plus `need` of its
 * unit must stay within the limit.
 */
export interface HoldRequest {
  keyId: string;
  periods: UsagePeriods;
  holdId: string;
  quotas: readonly Quota[];
  need: QuotaAmounts;
  /** Added to the hold once granted. */
  amounts: QuotaAmounts;
  /** When the hold lapses unless its entry is written first (its instance died); ms since the epoch. */
  expiresAt: number;
  /** The meter's clock (ms since the epoch): holds expired by then are dropped. */
  now: number;
}

/** A hold's outcome: granted or not, and each quota's use (in `quotas` order) before this hold's new amounts. */
export interface HoldResult {
  granted: boolean;
  used: number[];
  /** Of `used`, what live holds hold (per quota); absent when the store could not tell. */
  held?: number[];
  /** On a refusal: when the last live hold of the key's other requests lapses (ms since the epoch; 0 for none). */
  heldUntil?: number;
  /** The key was revoked (a refusal): instances that remember it verified learn it here, on its next request. */
  revoked?: boolean;
}

/** One key's counts in one period, and what its requests in flight hold there. */
export interface UsageRow {
  keyId: string;
  period: string;
  counts: UsageCounts;
  held: QuotaAmounts;
}

/** Where usage lives (a file on this machine, or Redis): atomic holds against quotas, and the ledger. */
export interface UsageStore {
  /** Checks and holds atomically: no two requests, in any process sharing the store, both get the last unit. */
  hold(request: HoldRequest): Promise<HoldResult>;
  /** Adds entries to the ledger, each dropping its hold in the same step. */
  write(entries: readonly LedgerEntry[]): Promise<void>;
  /** Every key's counts in the given periods (ids such as `2026-11-14` or `2026-11`), with live holds. */
  read(periods: readonly string[], now: number): Promise<UsageRow[]>;
  close(): Promise<void>;
}

/** Where a key's quota stands: the quota closest to spent, what is left of it, and when it renews. */
export interface QuotaState {
  quota: Quota;
  remaining: number;
  /** When its period ends (ms since the epoch). */
  resetAt: number;
  /** Seconds until then, by the meter's clock. */
  resetSeconds: number;
}

/** What the ledger needs of an answer (a `ChatOutcome` is one). */
export interface AnsweredRequest {
  cache: CacheLookup;
  /**
   * The video's length in seconds (undefined when unknown) and its transcript's characters read (undefined when not
   * known): what its minutes are charged from (see `chargedMinutes`).
   */
  answer: { videoSeconds?: number; characters?: number };
  spent?: Spent;
}

/**
 * One request of one caller, as the meter follows it: the quota check made
 * when it began, the video's minutes held once known, then the answer
 * charged or the refusal counted (the first of the two counts; later calls do nothing).
 */
export interface MeteredRequest {
  /** Set when a quota is spent: the request must be refused with it (already counted as refused). */
  readonly refusal?: Error & { code: ErrorCode; retryAfterSeconds?: number };
  /** The caller's quota closest to spent, this request included; undefined for a caller without a quota. */
  readonly quota?: QuotaState;
  /**
   * Holds the minutes of the video before work is spent on it: pass it as `ChatService.answer`'s `admit`. Absent
   * for a caller without a quota of minutes (nothing to check).
   *
   * @throws {AppError} `quota_exceeded` when fewer minutes are left (the request is not charged)
   */
  readonly admit?: (minutes: number) => Promise<void>;
  /**
   * What the request's own work spent upstream (tokens, audio seconds), recorded at once against its key whatever
   * the request's end: pass it as `ChatService.answer`'s `spend`.
   */
  readonly spend: (spent: Spent) => void;
  /**
   * The request's own work is about to ask the model or speech-to-text about a video of these minutes: from now on a
   * caller that gives the request up is charged for it (see `refused`), whatever its quotas. Pass it as
   * `ChatService.answer`'s `working`.
   */
  readonly working: (minutes: number) => void;
  /**
   * The request's own work failed on what the video's uploader controls (its audio holds no speech): once committed,
   * its refusal charges the request and its minutes, as a caller that leaves is charged (see `refused`).
   */
  readonly chargeFailure?: () => void;
  /** The answer was delivered (a stream's `done` sent): charges it. */
  answered(outcome: AnsweredRequest): void;
  /**
   * The request ended without its answer. Before its video's minutes were held (or its own work asked upstream),
   * or when the service or the provider failed, it gives back what it held and is counted as refused with `code`
   * (none: nothing counted). Once they were, a caller that stopped waiting (it hung up or cancelled: `callerLeft`,
   * true when no code is given) is charged the request and its minutes. The service's own time limit (504) is a
   * failure of the service or the provider, not the caller's: given back.
   */
  refused(code?: ErrorCode, callerLeft?: boolean): void;
}

/** Usage metering and quotas per caller, for every transport (HTTP, streams, MCP). */
export interface UsageMeter {
  /**
   * Starts metering a request that passed its key and rate checks: checks the caller's quotas (holding the
   * request itself against a `req` quota, and asking for a minute left under a `min` one).
   *
   * @param options.timeoutMs the request's time limit: what it holds lapses some time after, should its instance die
   * @param options.minutes the minutes its answer is charged when they are known already (a cached answer): the
   *   request and those minutes are held in one step, and the request is admitted to them
   * @returns the request, once its quotas were checked (a caller without a quota asks no store: it settles at once)
   */
  begin(caller: KeyIdentity, options?: { timeoutMs?: number; minutes?: number }): Promise<MeteredRequest>;
  /** Whether the caller has quotas: {@link begin} then asks the store. */
  meters(caller: KeyIdentity): boolean;
  /** Counts a request refused before it began (invalid, rate limited) against its caller. */
  refuse(caller: KeyIdentity, code: ErrorCode): void;
  /** Writes what is not written yet (at shutdown). */
  close(): Promise<void>;
}
