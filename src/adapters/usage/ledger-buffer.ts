/** @module Ledger entries written behind, about once a second, kept in memory while the store cannot be reached. */
import type { LedgerEntry, UsageStore } from "../../domain/usage.ts";
import { addCounts } from "./ledger-fields.ts";

/** Where the buffer reports that its store stopped taking entries (once), and that it takes them again. */
export interface UsageLog {
  warn(event: string, fields?: Record<string, unknown>): void;
  info(event: string, fields?: Record<string, unknown>): void;
}

/** Entries waiting beyond this are merged per key and period (their holds then lapse on their own). */
const MAX_WAITING = 10_000;

/**
 * Ledger entries written behind: each is queued at once (a request never
 * waits for its entry), and the queue is written every `flushMs`, so a crash
 * loses at most that much. While the store fails, entries wait in memory and
 * are written when it takes them again.
 *
 * @param options.store where entries go
 * @param options.flushMs the longest an entry waits while the store works (default 1000)
 * @param options.log told once when writing starts failing, and when it works again
 */
export function createLedgerBuffer(options: { store: UsageStore; flushMs?: number; log?: UsageLog }) {
  const flushMs = options.flushMs ?? 1_000;
  let waiting: LedgerEntry[] = [];
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
    waiting = [];
    try {
      await options.store.write(batch);
      if (failing) options.log?.info("usage_write_recovered", { entries: batch.length });
      failing = false;
    } catch (error) {
      if (!failing) options.log?.warn("usage_write_failed", { error: describe(error), effect: "counted in memory" });
      failing = true;
      waiting = batch.concat(waiting);
      if (waiting.length > MAX_WAITING) waiting = compact(waiting);
      schedule();
    }
  };

  /** Writes what waits now (one write at a time). */
  const flush = async (): Promise<void> => {
    while (writing) await writing;
    if (waiting.length === 0) return;
    writing = writeWaiting().finally(() => (writing = undefined));
    await writing;
  };

  return {
    add(entry: LedgerEntry): void {
      waiting.push(entry);
      schedule();
    },
    flush,
    /** Entries not written yet. */
    get waiting(): number {
      return waiting.length;
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

/** Merges entries per key and periods, dropping their holds (which lapse by themselves). */
function compact(entries: LedgerEntry[]): LedgerEntry[] {
  const merged = new Map<string, LedgerEntry>();
  for (const entry of entries) {
    const id = JSON.stringify([entry.keyId, entry.periods.day, entry.periods.month]);
    let into = merged.get(id);
    if (!into) merged.set(id, into = { keyId: entry.keyId, periods: entry.periods, counts: {} });
    addCounts(into.counts, entry.counts);
  }
  return [...merged.values()];
}

function describe(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/rediss?:\/\/\S*/g, "<redis url>")
    .slice(0, 200);
}
