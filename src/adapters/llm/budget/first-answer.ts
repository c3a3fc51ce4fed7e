/** @module Lets one request at a time ask the provider on guessed limits until an answer states them. */
/**
 * Until the provider has answered once, its limits are a guess: the first
 * request goes ahead on it (it asks), and the others that the guess would cut
 * down wait for that answer, which teaches the real limits.
 */
export interface FirstAnswer {
  /** A request is asking on the guess, and no answer has taught the limits yet. */
  readonly asking: boolean;
  /** Makes request `seq` the one asking, unless the limits are known or another asks. */
  ask(seq: number): void;
  /** @returns a promise settled when the limits are learnt or the asking request ends */
  done(): Promise<void>;
  /** An answer (or a refusal) has stated the limits. */
  learn(): void;
  /** Request `seq` ended: if it was asking without an answer, the next one asks. */
  end(seq: number): void;
}

/** @returns the state of the first answer of one budget */
export function createFirstAnswer(): FirstAnswer {
  let learnt = false;
  let asking: { seq: number; done: Promise<void>; settle(): void } | undefined;
  const stop = () => {
    const current = asking;
    asking = undefined;
    current?.settle();
  };
  return {
    get asking() {
      return !learnt && asking !== undefined;
    },
    ask(seq) {
      if (learnt || asking) return;
      let settle = () => {};
      const done = new Promise<void>((resolve) => (settle = resolve));
      asking = { seq, done, settle };
    },
    done: () => asking?.done ?? Promise.resolve(),
    learn() {
      learnt = true;
      stop();
    },
    end(seq) {
      if (asking?.seq === seq) stop();
    },
  };
}
