/** @module Header and idle timers of one connection, for runtimes that set none (Deno). */
/** Timer primitives, swappable in tests. */
export interface TimerClock {
  set(run: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

/** Why a connection was closed. */
export type ConnectionTimeout = "idle" | "headers";

/** What the relay tells the timers about one connection. */
export interface ConnectionTimers {
  /** Bytes came from the client (called for every chunk: a comparison when nothing changes). */
  received(): void;
  /** A request of this connection reached the app. */
  begin(): void;
  /** That request's response was sent (or failed). */
  end(): void;
  /** The connection is gone: no timer may fire. */
  dispose(): void;
}

const SYSTEM_CLOCK: TimerClock = {
  set: (run, ms) => setTimeout(run, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * The bounds of one connection where the runtime sets none (Deno): with no
 * request in the app, a connection that sends nothing is closed after
 * `idleMs` (a fresh one, or one kept alive after its last response), and one
 * whose request has begun to arrive but not reached the app after `headersMs`
 * (a slowloris client). Nothing is timed while a request is in the app: it
 * bounds the body (`BODY_TIMEOUT_MS`) and the work (`REQUEST_TIMEOUT_MS`).
 *
 * @param options.close called once a bound is passed, with which one
 */
export function createConnectionTimers(
  options: { headersMs: number; idleMs: number; close: (why: ConnectionTimeout) => void; clock?: TimerClock },
): ConnectionTimers {
  const clock = options.clock ?? SYSTEM_CLOCK;
  let inApp = 0;
  let timer: unknown;
  let waiting: ConnectionTimeout | undefined;
  const arm = (why: ConnectionTimeout, ms: number): void => {
    clock.clear(timer);
    waiting = why;
    timer = clock.set(() => options.close(why), ms);
  };
  const disarm = (): void => {
    clock.clear(timer);
    waiting = undefined;
  };
  arm("idle", options.idleMs);
  return {
    received() {
      // The first bytes after a quiet spell start a request: from now on its headers are timed.
      if (waiting === "idle") arm("headers", options.headersMs);
    },
    begin() {
      inApp++;
      disarm();
    },
    end() {
      if (--inApp === 0) arm("idle", options.idleMs);
    },
    dispose: disarm,
  };
}
