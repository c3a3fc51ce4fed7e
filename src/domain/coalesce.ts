/** @module Coalescing of equal concurrent work, in this process or shared with other instances. */
import { raceAbort } from "./deadline.ts";
import { AppError, isAppError } from "./errors.ts";
import type { FlightEvents, SharedFlight, SharedResult } from "./ports.ts";

/** Result of a coalesced call: the value and whether it was shared with an earlier caller. */
export interface Coalesced<T> {
  value: T;
  shared: boolean;
}

/**
 * Makes concurrent calls with the same key share one execution of their work.
 * The entry is dropped when the work settles, so a later call starts afresh.
 */
export class Coalescer<T> {
  #inflight = new Map<string, Promise<T>>();

  /** Number of distinct works in flight. */
  get size(): number {
    return this.#inflight.size;
  }

  /** @returns whether a call with `key` would join work already running */
  has(key: string): boolean {
    return this.#inflight.has(key);
  }

  /**
   * @param key identifies equal work
   * @param work starts the work; called only when no equal work is in flight
   * @returns the work's value, and whether this call joined one already running
   */
  async run(key: string, work: () => Promise<T>): Promise<Coalesced<T>> {
    const running = this.#inflight.get(key);
    if (running) return { value: await running, shared: true };
    const started = work().finally(() => this.#inflight.delete(key));
    this.#inflight.set(key, started);
    return { value: await started, shared: false };
  }
}

/**
 * How one process takes part in a shared work: runs it, or waits for it
 * elsewhere. `wanted` tells whether any local caller still waits, so a wait
 * for another instance can end when none does; the work itself never stops for it.
 */
export type Participation = <T>(
  key: string,
  work: () => Promise<T>,
  wanted: () => boolean,
  events?: FlightEvents,
) => Promise<SharedResult<T>>;

interface Entry {
  result: Promise<SharedResult<unknown>>;
  waiting: number;
}

/**
 * One participation per key in this process, joined by every concurrent local
 * caller until it settles. Each caller stops waiting on its own signal; the
 * work goes on for the others (and, as before, is bounded by its own time limits).
 *
 * @param participate runs or waits for the work once per key
 */
export function coalesceLocally(participate: Participation): SharedFlight {
  const inflight = new Map<string, Entry>();
  const start = (key: string, work: () => Promise<unknown>, events?: FlightEvents): Entry => {
    const callers = { waiting: 1 }; // the caller starting it, counted before the participation first asks
    const result = participate(key, work, () => callers.waiting > 0, events).finally(() => inflight.delete(key));
    result.catch(() => {}); // every caller may have stopped waiting: nobody else would handle it
    const entry: Entry = Object.assign(callers, { result });
    inflight.set(key, entry);
    return entry;
  };
  return {
    async run<T>(
      key: string,
      work: () => Promise<T>,
      options: { signal?: AbortSignal; events?: FlightEvents } = {},
    ): Promise<SharedResult<T>> {
      const running = inflight.get(key);
      const entry = running ?? start(key, work, options.events);
      if (running) entry.waiting++;
      try {
        const shared = (await raceAbort(entry.result, options.signal, stopped)) as SharedResult<T>;
        return running && shared.role === "owner" ? { value: shared.value, role: "local" } : shared;
      } finally {
        entry.waiting--;
      }
    },
  };
}

/** Today's in-process coalescing: the first caller runs the work, the others join it. */
export function createLocalFlight(): SharedFlight {
  return coalesceLocally(async (_key, work) => ({ value: await work(), role: "owner" }));
}

function stopped(signal: AbortSignal): AppError {
  if (isAppError(signal.reason)) return signal.reason;
  return new AppError("upstream_timeout", "The work did not finish in time; try again later", { cause: signal.reason });
}
