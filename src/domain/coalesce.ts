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
 * for another instance can end when none does; work run here is stopped through
 * its own signal (see {@link coalesceLocally}).
 */
export type Participation = <T>(
  key: string,
  work: () => Promise<T>,
  wanted: () => boolean,
  events?: FlightEvents,
) => Promise<SharedResult<T>>;

interface Entry {
  result: Promise<SharedResult<unknown>>;
  /** Callers in this process still waiting for the result. */
  waiting: number;
  /** Aborts the work once `waiting` falls to 0 before it settled. */
  unwanted: AbortController;
  settled: boolean;
}

/**
 * One participation per key in this process, joined by every concurrent local
 * caller until it settles. Each caller stops waiting on its own signal; the
 * work goes on for the others. When the last one stops waiting, the work's
 * signal aborts (nobody here would read its value, and upstream work must not
 * run for nobody) and the key is free at once: the next caller starts afresh.
 *
 * @param participate runs or waits for the work once per key
 */
export function coalesceLocally(participate: Participation): SharedFlight {
  const inflight = new Map<string, Entry>();
  const forget = (key: string, entry: Entry) => {
    if (inflight.get(key) === entry) inflight.delete(key);
  };
  const start = (key: string, work: (signal: AbortSignal) => Promise<unknown>, events?: FlightEvents): Entry => {
    const unwanted = new AbortController();
    // The caller starting it is counted before the participation first asks whether anyone waits.
    const entry = { waiting: 1, unwanted, settled: false } as Entry;
    entry.result = participate(key, () => work(unwanted.signal), () => entry.waiting > 0, events)
      .finally(() => {
        entry.settled = true;
        forget(key, entry);
      });
    entry.result.catch(() => {}); // every caller may have stopped waiting: nobody else would handle it
    inflight.set(key, entry);
    return entry;
  };
  return {
    async run<T>(
      key: string,
      work: (signal: AbortSignal) => Promise<T>,
      options: { signal?: AbortSignal; events?: FlightEvents } = {},
    ): Promise<SharedResult<T>> {
      const running = inflight.get(key);
      const entry = running ?? start(key, work, options.events);
      if (running) entry.waiting++;
      try {
        const shared = (await raceAbort(entry.result, options.signal, stopped)) as SharedResult<T>;
        return running && shared.role === "owner" ? { value: shared.value, role: "local" } : shared;
      } finally {
        if (--entry.waiting === 0 && !entry.settled) {
          forget(key, entry);
          entry.unwanted.abort(new AppError("upstream_timeout", "Every caller stopped waiting for this work"));
        }
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
