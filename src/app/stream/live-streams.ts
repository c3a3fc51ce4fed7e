/** @module Tracks the streamed responses in progress, so shutdown and logs know when they end. */
/** A streamed response in progress, as shutdown sees it. */
export interface LiveStream {
  /** Ends the stream now with an `error` event carrying `reason`. */
  interrupt(reason: unknown): void;
}

/**
 * The streamed responses in progress. A runtime counts a request as done once
 * its handler has returned the response, but a stream goes on: shutdown waits
 * for these too, and interrupts those still open when the grace period ends.
 * The request log and Bun's idle bound learn here when a stream's body ended.
 */
export function createLiveStreams() {
  const live = new Set<LiveStream>();
  const ends = new WeakMap<Response, Promise<void>>();
  let waiters: (() => void)[] = [];
  return {
    get count(): number {
      return live.size;
    },
    /**
     * @param ended settles when the stream's body has ended (sent in full, interrupted or cancelled)
     * @returns the response, noted as a stream
     */
    add(stream: LiveStream, response: Response, ended: Promise<void>): Response {
      live.add(stream);
      ends.set(response, ended);
      void ended.finally(() => {
        live.delete(stream);
        if (live.size > 0) return;
        for (const wake of waiters) wake();
        waiters = [];
      });
      return response;
    },
    /** @returns when `response`'s body ends, for a stream; undefined for any other response */
    ended(response: Response): Promise<void> | undefined {
      return ends.get(response);
    },
    /** @returns a promise settled when no stream is open */
    idle(): Promise<void> {
      return live.size === 0 ? Promise.resolve() : new Promise((resolve) => waiters.push(resolve));
    },
    /** Ends every open stream with an `error` event. */
    interrupt(reason: unknown): void {
      for (const stream of [...live]) stream.interrupt(reason);
    },
  };
}

export type LiveStreams = ReturnType<typeof createLiveStreams>;
