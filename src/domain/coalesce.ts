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
