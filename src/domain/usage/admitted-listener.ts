/** @module A caller's view of shared work's events: nothing reaches it before its quota admits it to the minutes. */
import type { AnswerListener, FlightListener } from "../generation.ts";
import type { AnswerEvent, FlightEvent } from "../ports.ts";
import type { Account } from "./account.ts";

/**
 * Passes a shared generation's events to one caller. A caller under a quota of minutes gets none of them (not even
 * the first delta of an answer another key paid for) until its quota holds the video's minutes: the work's `length`
 * event starts that admission, and the events meanwhile wait here. The listener hands a refusal to `refuse`, which
 * stops the caller. The `length` event itself is never passed on.
 *
 * Past the `length` event every caller is committed, whatever kinds of quota its key has: a caller that reads part of
 * the answer and leaves is charged for it, as the caller running the work is.
 */
export class AdmittedListener {
  /** Events held back until the caller is admitted; undefined once it is (or needs no admission). */
  #waiting: AnswerEvent[] | undefined;
  #closed = false;
  readonly #account: Account;
  readonly #listener: AnswerListener;
  readonly #refuse: (error: unknown) => void;

  constructor(account: Account, listener: AnswerListener, refuse: (error: unknown) => void) {
    this.#account = account;
    this.#listener = listener;
    this.#refuse = refuse;
    if (account.checked) this.#waiting = [];
  }

  readonly listen: FlightListener = (event: FlightEvent) => {
    if (this.#closed) return;
    if (event.type === "length") {
      if (this.#waiting) {
        const { videoSeconds, characters } = event;
        this.#account.admit(videoSeconds, characters).then(() => this.#commit(videoSeconds, characters), this.#refuse);
      } else this.#commit(event.videoSeconds, event.characters);
      return;
    }
    if (this.#waiting) this.#waiting.push(event);
    else this.#listener(event);
  };

  /** The caller was admitted (to its length's minutes, or to the finished answer's): what waited goes to it now. */
  flush(): void {
    const waiting = this.#waiting;
    this.#waiting = undefined;
    if (this.#closed || !waiting) return;
    for (const event of waiting) this.#listener(event);
  }

  /** The caller follows the work past the video's length: charged from now on; then what waited goes to it. */
  #commit(videoSeconds: number | undefined, characters: number | undefined): void {
    if (this.#closed) return;
    try {
      this.#account.working(videoSeconds, characters);
    } catch (error) {
      return this.#refuse(error);
    }
    this.flush();
  }

  /** The caller stopped waiting: nothing more reaches it. */
  close(): void {
    this.#closed = true;
    this.#waiting = undefined;
  }
}
