/** @module Ledger entries written behind, about once a second, kept in memory while the store cannot be reached. */
import type { LedgerEntry, UsageStore } from "../../domain/usage/meter.ts";
import { addCounts } from "./ledger-fields.ts";

/** Where the buffer reports that its store stopped taking entries (once), and that it takes them again. */
export interface UsageLog {
  warn(event: string, fields?: Record<string, unknown>): void;
  info(event: string, fields?: Record<string, unknown>): void;
}

/** Hold ids one waiting entry keeps at most while the store fails (the others lapse on their own). */
const MAX_HOLDS = 10_000;

/**
 * Ledger entries written behind: each is merged at once into the waiting
 * entry of its key and periods (a request never waits for its entry, and what
 * waits is one entry per key however many requests it made), and what waits
 * is written every `flushMs`, so a crash loses at most that much. While the
 * store fails, entries wait in memory and are written when it takes them again.
 *
 * @param options.store where entries go
 * @param options.flushMs the longest an entry waits while the store works (default 1000)
 * @param options.log told once when writing starts failing, and when it works again
 * @param options.onWritten told of each write's outcome (true: the store took it)
 */
export function createLedgerBuffer(
  options: { store: UsageStore; flushMs?: number; log?: UsageLog; onWritten?: (ok: boolean) => void },
) {
  const flushMs = options.flushMs ?? 1_000;
  let waiting = new Waiting();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let writing: Promise<void> | undefined;
  let failing = false;

  const schedule = (): void => {
    if (timer !== undefined) return;
    timer = setTimeout(() => {
      timer = undefined;
      void flush();
    }, flushMs);
    // The buffer never keeps a process alive: shutdown writes what waits (Deno's timers have no unref).
    (timer as { unref?: () => void }).unref?.();
  };

  const writeWaiting = async (): Promise<void> => {
    const batch = waiting;
    waiting = new Waiting();
    try {
      await options.store.write(batch.entries());
      if (failing) options.log?.info("usage_write_recovered", { entries: batch.size });
      failing = false;
      options.onWritten?.(true);
    } catch (error) {
      if (!failing) options.log?.warn("usage_write_failed", { error: describe(error), effect: "counted in memory" });
      failing = true;
      options.onWritten?.(false);
      // What came in meanwhile goes on top of what failed, merged again.
      const later = waiting;
      waiting = batch;
      for (const entry of later.entries()) waiting.add(entry);
      schedule();
    }
  };

  /** Writes what waits now (one write at a time). */
  const flush = async (): Promise<void> => {
    while (writing) await writing;
    if (waiting.size === 0) return;
    writing = writeWaiting().finally(() => (writing = undefined));
    await writing;
  };

  return {
    add(entry: LedgerEntry): void {
      waiting.add(entry);
      schedule();
    },
    flush,
    /** What waits to be written for a key and its periods: answers whose holds the store still counts as held. */
    waitingFor(keyId: string, periods: LedgerEntry["periods"]): LedgerEntry["counts"] | undefined {
      return waiting.find(keyId, periods)?.counts;
    },
    /** Entries not written yet (one per key and periods). */
    get waiting(): number {
      return waiting.size;
    },
    /** Writes what waits, once more, and stops the timer. */
    async close(): Promise<void> {
      clearTimeout(timer);
      timer = undefined;
      await flush();
      clearTimeout(timer);
      timer = undefined;
    },
  };
}

/**
 * The entries waiting, one per key and periods, found by the periods object then the key id: the meter passes the
 * same periods object all day, so adding an entry builds no lookup string (the cached path adds one a request).
 * Equal periods in distinct objects are kept apart here; the store merges them when writing.
 */
class Waiting {
  readonly #byPeriods = new Map<LedgerEntry["periods"], Map<string, LedgerEntry>>();
  size = 0;

  add(entry: LedgerEntry): void {
    let byKey = this.#byPeriods.get(entry.periods);
    if (!byKey) this.#byPeriods.set(entry.periods, byKey = new Map());
    let group = byKey.get(entry.keyId);
    if (!group) {
      byKey.set(entry.keyId, group = { keyId: entry.keyId, periods: entry.periods, counts: {}, holds: [] });
      this.size++;
    }
    addCounts(group.counts, entry.counts);
    if (!entry.holds) return;
    for (const hold of entry.holds) if (group.holds!.length < MAX_HOLDS) group.holds!.push(hold);
  }

  find(keyId: string, periods: LedgerEntry["periods"]): LedgerEntry | undefined {
    const found = this.#byPeriods.get(periods)?.get(keyId);
    if (found) return found;
    for (const [other, byKey] of this.#byPeriods) {
      if (other.day === periods.day && other.month === periods.month) return byKey.get(keyId);
    }
    return undefined;
  }

  entries(): LedgerEntry[] {
    return [...this.#byPeriods.values()].flatMap((byKey) => [...byKey.values()]);
  }
}

/** A store's failure for a log line: its message, short, without a Redis URL (it may hold a password). */
export function describe(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/rediss?:\/\/\S*/g, "<redis url>")
    .slice(0, 200);
}
