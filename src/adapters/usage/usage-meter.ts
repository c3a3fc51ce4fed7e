/** @module The usage meter: quotas checked and held in the store, ledger entries written behind. */
import type { KeyIdentity } from "../../domain/ports.ts";
import { periodEnd, periodsAt, type Quota, type UsagePeriods } from "../../domain/usage/quota.ts";
import { type UsageMeter, type UsageStore } from "../../domain/usage/meter.ts";
import { KnownUsage } from "./known-usage.ts";
import { createLedgerBuffer, describe, type UsageLog } from "./ledger-buffer.ts";
import { Metered, type UsageObserver } from "./metered-request.ts";

export interface UsageMeterOptions {
  store: UsageStore;
  /** The caller's quotas: its own, else the default (`QUOTA`); none for a caller without a quota. */
  quotasFor: (caller: KeyIdentity) => readonly Quota[];
  /** A request's time limit when its transport names none (`REQUEST_TIMEOUT_MS`). */
  defaultTimeoutMs: number;
  /** Clock (ms since the epoch) that decides the UTC day and month, swappable in tests. */
  now?: () => number;
  /** How often entries are written (default 1000 ms): at most this much of the counts is lost in a crash. */
  flushMs?: number;
  /** How long a hold outlives its request's time limit before it lapses (default 60 s, past the write behind). */
  holdGraceMs?: number;
  log?: UsageLog;
  observe?: UsageObserver;
  /** Whether every caller has quotas (`QUOTA` set); else quotas are in use from the first caller that has one. */
  quotasInUse?: boolean;
  /**
   * Told, while quotas are in use, when the store fails a hold or a write (false: quotas are then enforced on what
   * this instance alone knows), and when a hold or a write succeeds again (true).
   */
  onAvailability?: (available: boolean) => void;
}

/**
 * Meters every request of every caller (see {@link UsageMeter}). A caller
 * without quotas costs no store call: its entry is only queued. A caller with
 * quotas holds what it may use in the store (atomically, shared by every
 * process on it) before the work, and its entry replaces the hold after. The
 * store unreachable: holds are decided on what this instance knows (the
 * use the store last reported, plus this instance's holds since) and entries
 * wait in memory until it is back.
 *
 * @returns the meter, with `flush` (write what waits now; tests and reports)
 */
export function createUsageMeter(options: UsageMeterOptions): UsageMeter & { flush(): Promise<void> } {
  const { store, log } = options;
  const now = options.now ?? Date.now;
  const holdGraceMs = options.holdGraceMs ?? 60_000;
  let quotasInUse = options.quotasInUse ?? false;
  /** What was last told to `onAvailability`. */
  let available = true;
  const tell = (ok: boolean): void => {
    if (ok === available || (!ok && !quotasInUse)) return;
    available = ok;
    options.onAvailability?.(ok);
  };
  const buffer = createLedgerBuffer({ store, flushMs: options.flushMs, log, onWritten: tell });
  const known = new KnownUsage();
  let down = false;
  const periodsOf = samePeriodsAllDay();
  const parts = {
    async hold(request: Parameters<UsageStore["hold"]>[0]) {
      try {
        const result = await store.hold(request);
        known.learn(request, result);
        if (down) log?.info("usage_store_recovered", {});
        down = false;
        tell(true);
        return result;
      } catch (error) {
        if (!down) {
          log?.warn("usage_store_unavailable", {
            error: describe(error),
            effect: "quotas are enforced on what this instance knows",
          });
        }
        down = true;
        tell(false);
        return known.hold(request);
      }
    },
    record: (entry: Parameters<typeof buffer.add>[0]) => buffer.add(entry),
    // Sent now, before the failure's answer goes out: on one Redis connection, or SQLite's synchronous write, it
    // comes before any retry's hold. A store that fails it gets it from the buffer later.
    release: (entry: Parameters<typeof buffer.add>[0]) => {
      store.write([entry]).then(() => tell(true), () => buffer.add(entry));
    },
    gaveBack: known.gaveBack.bind(known),
    waitingFor: buffer.waitingFor,
    now,
    periodsAt: periodsOf,
    observe: options.observe,
  };
  return {
    begin(caller, begun = {}) {
      const lifeMs = (begun.timeoutMs ?? options.defaultTimeoutMs) + holdGraceMs;
      const quotas = options.quotasFor(caller);
      if (quotas.length > 0) quotasInUse = true;
      return Metered.begin(parts, caller.id, quotas, lifeMs, begun.minutes);
    },
    meters: (caller) => options.quotasFor(caller).length > 0,
    refuse(caller, code) {
      buffer.add({ keyId: caller.id, periods: periodsOf(now()), counts: { refused: { [code]: 1 } } });
    },
    flush: buffer.flush,
    async close() {
      await buffer.close();
      await store.close();
    },
  };
}

/**
 * @returns `periodsAt(ms)` handing out one frozen object for every instant of the same UTC day: the ledger buffer
 *   groups a day's entries by that object, so adding one builds no lookup string
 */
function samePeriodsAllDay(): (ms: number) => UsagePeriods {
  let day: { from: number; to: number; periods: UsagePeriods } = { from: 0, to: 0, periods: { day: "", month: "" } };
  return (ms) => {
    if (ms >= day.from && ms < day.to) return day.periods;
    const to = periodEnd("day", ms);
    day = { from: to - 86_400_000, to, periods: Object.freeze(periodsAt(ms)) };
    return day.periods;
  };
}
