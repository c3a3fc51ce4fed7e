/** @module One generation in flight, shared by its callers: the replayable event log and cancellation. */
import type { AnswerEvent, AnswerEvents, FlightEvent, FlightEvents } from "./ports.ts";

/** Follows a generation's events: the ones so far at once, then each as it comes. */
export type AnswerListener = (event: AnswerEvent) => void;

/** Follows a generation's events as its callers share them, the video's length included (see {@link FlightEvent}). */
export type FlightListener = (event: FlightEvent) => void;

/**
 * One generation in flight in this process, as its callers share it: the log
 * of its events (a caller who joins late replays it from the start, so every
 * caller gets the same deltas), and a count of the callers still waiting.
 * When the last one leaves before the work is done, the work is cancelled:
 * nobody would read the answer.
 *
 * Work running on another instance feeds the log through `relay`. If that
 * owner died after some of its deltas went out and the work then runs here,
 * the new work's deltas are kept out of the log (a caller must never get
 * two answers' text mixed): its callers get the rest at the end only if the
 * new answer continues what they got (the stream checks), an error otherwise.
 */
export class Generation {
  readonly #log: FlightEvent[] = [];
  readonly #listeners = new Set<FlightListener>();
  /** Senders of this process's own work's events to other instances. */
  readonly #publishers = new Set<FlightListener>();
  readonly #cancel = new AbortController();
  #callers = 0;
  #settled = false;
  /** Text of the deltas this process's own work wrote. */
  #written = "";
  /** The log holds deltas of another instance's work. */
  #foreign = false;

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
    progress: (progress) => this.#own({ type: "progress", progress }),
    delta: (text) => {
      if (text !== "") this.#own({ type: "delta", text });
    },
  };

  /** How a shared flight relays this generation's events to and from other instances. */
  readonly relay: FlightEvents = {
    publish: (send) => {
      this.#publishers.add(send);
      return () => this.#publishers.delete(send);
    },
    listen: (event) => {
      if (this.#settled || (event.type === "delta" && event.text === "")) return;
      if (event.type === "delta") this.#foreign = true;
      this.#emit(event);
    },
  };

  /** @returns the text of every delta this process's own work wrote so far */
  streamed(): string {
    return this.#written;
  }

  /**
   * A caller joins: it replays the log, then follows it until it leaves.
   *
   * @returns `leave`, to call once the caller stops waiting (answered, failed or gone)
   */
  join(listener?: FlightListener): () => void {
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

  /**
   * The work learnt the video's length (and its transcript's characters, once read): its callers' quotas admit them to
   * its minutes before they follow it.
   */
  known(videoSeconds: number | undefined, characters?: number): void {
    this.#own({ type: "length", videoSeconds, ...(characters !== undefined ? { characters } : {}) });
  }

  /** The work ended (answer or failure): no more events, and leaving cancels nothing. */
  settle(): void {
    this.#settled = true;
  }

  #own(event: FlightEvent): void {
    if (this.#settled) return;
    if (event.type === "delta") this.#written += event.text;
    for (const send of this.#publishers) send(event);
    if (event.type !== "delta" || !this.#foreign) this.#emit(event);
  }

  #emit(event: FlightEvent): void {
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
