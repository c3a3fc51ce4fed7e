import type { AnswerEvent, AnswerEvents } from "./ports.ts";

/** Follows a generation's events: the ones so far at once, then each as it comes. */
export type AnswerListener = (event: AnswerEvent) => void;

/**
 * One generation in flight in this process, as its callers share it: the log
 * of its events (a caller who joins late replays it from the start, so every
 * caller gets the same deltas), and a count of the callers still waiting.
 * When the last one leaves before the work is done, the work is cancelled:
 * nobody would read the answer.
 */
export class Generation {
  readonly #log: AnswerEvent[] = [];
  readonly #listeners = new Set<AnswerListener>();
  readonly #cancel = new AbortController();
  #callers = 0;
  #settled = false;

  /** Aborted when every caller has left before the work ended. */
  get signal(): AbortSignal {
    return this.#cancel.signal;
  }

  get settled(): boolean {
    return this.#settled;
  }

  /** No caller waits for it. */
  get idle(): boolean {
    return this.#callers === 0;
  }

  /** The sink the writer reports to. */
  readonly events: AnswerEvents = {
    progress: (progress) => this.#emit({ type: "progress", progress }),
    delta: (text) => {
      if (text !== "") this.#emit({ type: "delta", text });
    },
  };

  /** @returns the text of every delta so far */
  streamed(): string {
    let text = "";
    for (const event of this.#log) if (event.type === "delta") text += event.text;
    return text;
  }

  /**
   * A caller joins: it replays the log, then follows it until it leaves.
   *
   * @returns `leave`, to call once the caller stops waiting (answered, failed or gone)
   */
  join(listener?: AnswerListener): () => void {
    this.#callers++;
    if (listener) {
      for (const event of this.#log) listener(event);
      this.#listeners.add(listener);
    }
    let left = false;
    return () => {
      if (left) return;
      left = true;
      if (listener) this.#listeners.delete(listener);
      if (--this.#callers === 0 && !this.#settled) this.#cancel.abort(new Error("Every caller left"));
    };
  }

  /** The work ended (answer or failure): no more events, and leaving cancels nothing. */
  settle(): void {
    this.#settled = true;
  }

  #emit(event: AnswerEvent): void {
    if (this.#settled) return;
    this.#log.push(event);
    for (const listener of this.#listeners) listener(event);
  }
}

/** The generations in flight in this process, by answer key; a settled one is replaced by the next caller. */
export class Generations {
  readonly #byKey = new Map<string, Generation>();

  /** @returns the generation in flight for `key`, or a fresh one */
  enter(key: string): Generation {
    const running = this.#byKey.get(key);
    if (running && !running.settled) return running;
    const fresh = new Generation();
    this.#byKey.set(key, fresh);
    return fresh;
  }

  /** Forgets `generation` once it has settled (unless a newer one took its key). */
  forget(key: string, generation: Generation): void {
    if (this.#byKey.get(key) === generation) this.#byKey.delete(key);
  }
}
