/** @module One metered request: its quota holds, its quota state for headers, and its ledger entry. */
import { AppError, type ErrorCode } from "../../domain/errors.ts";
import { nextHoldId } from "./hold-id.ts";
import type { CacheLookup } from "../../domain/ports.ts";
import {
  CHARACTERS_PER_MINUTE,
  chargedMinutes,
  periodEnd,
  type Quota,
  type QuotaAmounts,
  type UsagePeriods,
} from "../../domain/usage/quota.ts";
import type { Spent } from "../../domain/usage/account.ts";
import {
  type AnsweredRequest,
  type HoldRequest,
  type HoldResult,
  type LedgerEntry,
  type MeteredRequest,
  type QuotaState,
  type UsageCounts,
} from "../../domain/usage/meter.ts";

/** The meter reports here every answer it charges, for metrics (no key: its cardinality is unbounded). */
export interface UsageObserver {
  answered(minutes: number, cache: CacheLookup): void;
}

/** What a metered request needs of its meter. */
export interface MeterParts {
  /** Holds against the store, or against what the meter knows while the store cannot be reached. */
  hold(request: HoldRequest): Promise<HoldResult>;
  /** Queues a ledger entry. */
  record(entry: LedgerEntry): void;
  /** Drops holds in the store now (a failed request's), so a retry right after finds them gone. */
  release(entry: LedgerEntry): void;
  /** Tells what the meter knows that a request gave back what it held. */
  gaveBack(keyId: string, periods: UsagePeriods, amounts: QuotaAmounts): void;
  now(): number;
  /** The UTC day and month of an instant: the same object all day long (the ledger buffer groups by it). */
  periodsAt(ms: number): UsagePeriods;
  /** Counts answered here but not written yet: the store still counts their holds as held. */
  waitingFor?(keyId: string, periods: UsagePeriods): Partial<UsageCounts> | undefined;
  observe?: UsageObserver;
}

const NOTHING: QuotaAmounts = { min: 0, req: 0 };
/** The count each quota unit is spent in. */
const UNIT_COUNT = { min: "minutes", req: "requests" } as const;

/** One request of one caller, from its quota check to its ledger entry (see {@link MeteredRequest}). */
export class Metered implements MeteredRequest {
  refusal?: AppError;
  /** Present only for a caller under a quota of minutes: nothing else to admit. */
  readonly admit?: (minutes: number) => Promise<void>;
  readonly #parts: MeterParts;
  readonly #keyId: string;
  readonly #quotas: readonly Quota[];
  readonly #startedAt: number;
  readonly #periods: UsagePeriods;
  readonly #expiresAt: number;
  readonly #holdId?: string;
  /** Each quota's use by other requests (answered, and held), as last seen. */
  #others: number[];
  #held: QuotaAmounts = { ...NOTHING };
  /** The minutes its quotas admitted it to, held when it began (a cached answer's): admitting them again is done. */
  #admittedMinutes?: number;
  #done = false;
  /**
   * The minutes of a request whose work may spend upstream from now on (its minutes held, or its own work about to
   * ask the model or speech-to-text): what it is charged if its caller gives it up.
   */
  #committed?: number;
  /** What the work spent was told by {@link spend} (the answer's own figures are not counted again). */
  #spendTold = false;
  /** The request's work failed on what the uploader controls: once committed, its refusal is charged. */
  #failureCharged = false;

  /**
   * Starts metering: a caller with quotas must have a request (under a `req` quota) and a minute (under a `min`
   * one) left, and holds the request.
   *
   * @param lifeMs how long its holds outlive it should its instance die before writing its entry
   * @param minutes the minutes of its answer when known already (a cached one): held with the request, in one step
   */
  static async begin(
    parts: MeterParts,
    keyId: string,
    quotas: readonly Quota[],
    lifeMs: number,
    minutes?: number,
  ): Promise<Metered> {
    const metered = new Metered(parts, keyId, quotas, lifeMs);
    return quotas.length === 0 ? metered : await metered.#check(minutes);
  }

  /**
   * The check at the start: a request and a minute left (the answer's minutes, when known); the request held under
   * a `req` quota, and the known minutes under a `min` one.
   */
  async #check(minutes?: number): Promise<Metered> {
    // Only a `req` quota holds the request itself; a `min` one is only looked at here unless the minutes are known
    // (their hold comes with the video's length), so a key under one kind of quota costs one hold per request.
    const holdsRequests = this.#quotas.some((quota) => quota.unit === "req");
    const need = { min: minutes ?? 1, req: 1 };
    const holdsMinutes = minutes !== undefined && this.admit !== undefined;
    const result = await this.#hold(need, { min: holdsMinutes ? minutes : 0, req: holdsRequests ? 1 : 0 });
    if (result.revoked) {
      this.refusal = revoked();
      this.refused("unauthorized");
    } else if (!result.granted) {
      this.refusal = this.#exceeded(result, need, minutes);
      this.refused("quota_exceeded");
    } else if (holdsMinutes) {
      this.#admittedMinutes = minutes;
      this.#committed = minutes;
    }
    return this;
  }

  private constructor(parts: MeterParts, keyId: string, quotas: readonly Quota[], lifeMs: number) {
    this.#parts = parts;
    this.#keyId = keyId;
    this.#quotas = quotas;
    this.#startedAt = parts.now();
    this.#periods = parts.periodsAt(this.#startedAt);
    this.#expiresAt = this.#startedAt + lifeMs;
    this.#others = quotas.map(() => 0);
    if (quotas.length > 0) this.#holdId = nextHoldId(this.#startedAt);
    if (quotas.some((quota) => quota.unit === "min")) this.admit = (minutes) => this.#admit(minutes);
  }

  get quota(): QuotaState | undefined {
    if (this.#quotas.length === 0) return undefined;
    let closest: QuotaState | undefined;
    const now = this.#parts.now();
    this.#quotas.forEach((quota, i) => {
      const remaining = Math.max(0, quota.limit - this.#others[i]! - this.#held[quota.unit]);
      const resetAt = periodEnd(quota.period, this.#startedAt);
      const state = { quota, remaining, resetAt, resetSeconds: Math.max(0, (resetAt - now) / 1000) };
      if (!closest || closer(state, closest)) closest = state;
    });
    return closest;
  }

  async #admit(minutes: number): Promise<void> {
    this.#refuseOnceEnded();
    if (this.#admittedMinutes !== undefined && minutes <= this.#admittedMinutes) return;
    const need = { min: minutes, req: 0 };
    const result = await this.#hold(need, need);
    if (result.revoked) throw revoked();
    if (!result.granted) throw this.#exceeded(result, need, minutes);
    this.#committed ??= minutes;
  }

  /**
   * The request's own work is about to ask the model or speech-to-text about a video of these minutes, or its caller
   * follows shared work past the video's length: from now on it is charged whatever its caller does.
   *
   * @throws {AppError} once the request has ended: work must not start for it (see {@link #refuseOnceEnded})
   */
  readonly working = (minutes: number): void => {
    if (this.#committed !== undefined) return;
    this.#refuseOnceEnded();
    this.#committed = minutes;
  };

  /**
   * A request that has ended (answered, refused, or given up by its caller) admits nothing more: work that runs on
   * for other callers must not pass on its admission without any hold (that work fails for them as another caller's
   * refusal, and they do it again as their own).
   */
  #refuseOnceEnded(): void {
    if (!this.#done) return;
    throw new AppError("quota_exceeded", "The request this work was started for has ended; send the request again");
  }

  /**
   * The request's own work failed on what the video's uploader controls (its audio holds no speech): a committed
   * request's refusal is charged the request and its minutes, as a caller that leaves is.
   */
  readonly chargeFailure = (): void => {
    this.#failureCharged = true;
  };

  /** Records what the request's own work spent upstream, at once, against its key (whatever the request's end). */
  readonly spend = (spent: Spent): void => {
    this.#spendTold = true;
    const counts = { inputTokens: spent.inputTokens, outputTokens: spent.outputTokens, sttSeconds: spent.audioSeconds };
    if (counts.inputTokens > 0 || counts.outputTokens > 0 || counts.sttSeconds > 0) {
      this.#parts.record({ keyId: this.#keyId, periods: this.#periods, counts });
    }
  };

  answered(outcome: AnsweredRequest): void {
    if (this.#done) return;
    this.#done = true;
    const minutes = chargedMinutes(outcome.answer.videoSeconds, outcome.answer.characters);
    const spent = this.#spendTold ? undefined : outcome.spent;
    this.#record({
      requests: 1,
      cacheHits: outcome.cache === "hit" ? 1 : 0,
      minutes,
      inputTokens: spent?.inputTokens ?? 0,
      outputTokens: spent?.outputTokens ?? 0,
      sttSeconds: spent?.audioSeconds ?? 0,
    });
    this.#parts.observe?.answered(minutes, outcome.cache);
  }

  refused(code?: ErrorCode, callerLeft: boolean = code === undefined): void {
    if (this.#done) return;
    if (this.#committed !== undefined && (callerLeft || this.#failureCharged)) {
      return this.#chargeUnanswered(this.#committed);
    }
    this.#done = true;
    const holds = this.#held.min > 0 || this.#held.req > 0;
    if (holds) {
      this.#parts.gaveBack(this.#keyId, this.#periods, this.#held);
      this.#parts.release({ keyId: this.#keyId, periods: this.#periods, counts: {}, holds: [this.#holdId!] });
    }
    this.#held = { ...NOTHING };
    this.#record(code ? { refused: { [code]: 1 } } : {}, !holds);
  }

  /**
   * An admitted request whose caller stopped waiting: its work may have asked the provider or speech-to-text, so the
   * request and its video's minutes are charged, as for an answer (what the work spent is told by {@link spend}).
   */
  #chargeUnanswered(minutes: number): void {
    this.#done = true;
    this.#record({ requests: 1, minutes });
    this.#parts.observe?.answered(minutes, "miss");
  }

  #record(counts: LedgerEntry["counts"], withHold = true): void {
    const entry: LedgerEntry = { keyId: this.#keyId, periods: this.#periods, counts };
    if (this.#holdId && withHold) entry.holds = [this.#holdId];
    this.#parts.record(entry);
  }

  async #hold(need: QuotaAmounts, amounts: QuotaAmounts): Promise<HoldResult> {
    const result = await this.#parts.hold({
      keyId: this.#keyId,
      periods: this.#periods,
      holdId: this.#holdId!,
      quotas: this.#quotas,
      need,
      amounts,
      expiresAt: this.#expiresAt,
      now: this.#parts.now(),
    });
    this.#others = result.used.map((used, i) => Math.max(0, used - this.#held[this.#quotas[i]!.unit]));
    if (result.granted) this.#held = { min: this.#held.min + amounts.min, req: this.#held.req + amounts.req };
    return result;
  }

  /**
   * The refusal of a hold: names the quota that frees up last among those without room, and waits until then: its
   * period's end, or, when only other requests' holds fill it (answered use alone leaves room), until they lapse.
   */
  #exceeded(result: HoldResult, need: QuotaAmounts, minutes?: number): AppError {
    const short = this.#quotas.map((quota, i) => ({ quota, used: result.used[i]!, ...this.#freedAt(result, i, need) }))
      .filter(({ quota, used }) => used + need[quota.unit] > quota.limit)
      .sort((a, b) => b.at - a.at || (a.quota.period === "month" ? -1 : 1));
    const { quota, used, at, byHolds } = short[0]!;
    const when = new Date(at).toISOString().replace(".000Z", "Z");
    const left = Math.max(0, quota.limit - used);
    const message = byHolds
      ? `Requests in flight of this API key hold the rest of its quota of ${describe(quota)}; ` +
        `what they do not use is free again by ${when}`
      : minutes !== undefined && left > 0
      ? `The video is charged ${plural(minutes, "minute")} (its length, or its transcript's text at ` +
        `${CHARACTERS_PER_MINUTE} characters a minute when longer) and this API key has ${left} of its ` +
        `${describe(quota)} left; ask about a shorter video, or wait until ${when}`
      : `This API key has spent its quota of ${describe(quota)}; it renews at ${when}`;
    return new AppError("quota_exceeded", message, {
      retryAfterSeconds: Math.max(1, (at - this.#parts.now()) / 1000),
    });
  }

  /** When quota `i` has room for `need` again: when other requests' holds lapse if they alone fill it, else its end. */
  #freedAt(result: HoldResult, i: number, need: QuotaAmounts): { at: number; byHolds: boolean } {
    const quota = this.#quotas[i]!;
    const end = periodEnd(quota.period, this.#startedAt);
    const own = this.#held[quota.unit];
    // Holds of answers this instance has not written yet are spent, not in flight.
    const answeredHere = this.#parts.waitingFor?.(this.#keyId, this.#periods)?.[UNIT_COUNT[quota.unit]] ?? 0;
    const othersHeld = (result.held?.[i] ?? 0) - own - answeredHere;
    const withoutThem = result.used[i]! - othersHeld + need[quota.unit];
    const byHolds = othersHeld > 0 && withoutThem <= quota.limit && !!result.heldUntil && result.heldUntil < end;
    return byHolds ? { at: result.heldUntil!, byHolds } : { at: end, byHolds };
  }
}

/** The refusal of a key revoked since this instance verified it: as for a key never issued. */
function revoked(): AppError {
  return new AppError("unauthorized", "Unknown API key; check the x-api-key header");
}

/**
 * Whether `a` is closer to spent than `b`: a smaller share left, else less left (it refuses first), else the one
 * that renews later.
 */
function closer(a: QuotaState, b: QuotaState): boolean {
  const shares = a.remaining / a.quota.limit - b.remaining / b.quota.limit;
  if (shares !== 0) return shares < 0;
  return a.remaining !== b.remaining ? a.remaining < b.remaining : a.resetAt > b.resetAt;
}

function describe(quota: Quota): string {
  return `${quota.limit} ${quota.unit === "min" ? "video minutes" : "requests"} per ${quota.period} (UTC)`;
}

function plural(count: number, unit: string): string {
  return `${count} ${unit}${count === 1 ? "" : "s"}`;
}
