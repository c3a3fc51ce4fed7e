/** @module What this instance knows of each key's use, to enforce quotas on while the store cannot be reached. */
import type { QuotaAmounts, QuotaUnit, UsagePeriods } from "../../domain/usage/quota.ts";
import type { HoldRequest, HoldResult } from "../../domain/usage/meter.ts";

/** Keys and periods remembered at most (the least recently learnt forgotten first). */
const MAX_REMEMBERED = 50_000;

/**
 * The use of each key and period as the store last told it, plus what this
 * instance held since. While the store cannot be reached, holds are decided
 * on it: a quota is then enforced on what this instance knows (other
 * instances' answers since are not seen; a key it never saw starts at 0).
 */
export class KnownUsage {
  readonly #used = new Map<string, number>();

  /** Learns each quota's use from the store's answer to a hold (its new amounts included when granted). */
  learn(request: HoldRequest, result: HoldResult): void {
    request.quotas.forEach((quota, i) => {
      const added = result.granted ? request.amounts[quota.unit] : 0;
      this.#set(idOf(request.keyId, request.periods[quota.period], quota.unit), result.used[i]! + added);
    });
  }

  /** Decides a hold on what is known, as the store would on what it has. */
  hold(request: HoldRequest): HoldResult {
    const used = request.quotas.map((quota) =>
      this.#used.get(idOf(request.keyId, request.periods[quota.period], quota.unit)) ?? 0
    );
    const granted = request.quotas.every((quota, i) => used[i]! + request.need[quota.unit] <= quota.limit);
    if (granted) this.#add(request.keyId, request.periods, request.amounts, 1);
    return { granted, used };
  }

  /** A request gave back what it held (it failed). */
  gaveBack(keyId: string, periods: UsagePeriods, amounts: QuotaAmounts): void {
    this.#add(keyId, periods, amounts, -1);
  }

  #add(keyId: string, periods: UsagePeriods, amounts: QuotaAmounts, sign: 1 | -1): void {
    for (const period of [periods.day, periods.month]) {
      for (const unit of ["min", "req"] as const) {
        if (amounts[unit] === 0) continue;
        const id = idOf(keyId, period, unit);
        this.#set(id, Math.max(0, (this.#used.get(id) ?? 0) + sign * amounts[unit]));
      }
    }
  }

  #set(id: string, value: number): void {
    this.#used.delete(id);
    this.#used.set(id, value);
    if (this.#used.size > MAX_REMEMBERED) this.#used.delete(this.#used.keys().next().value!);
  }
}

function idOf(keyId: string, period: string, unit: QuotaUnit): string {
  return `${keyId}|${period}|${unit}`;
}
