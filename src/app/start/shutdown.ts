/** @module Graceful shutdown: serve options, listener, in-flight request count and the stop sequence. */
import type { Logger } from "../log/logger.ts";

/** How the runtime's server must listen. */
export interface ServeOptions {
  port: number;
  host: string;
  fetch: (request: Request) => Promise<Response>;
  /** The app enforces the real limit; a runtime limit, if any, must sit above it. */
  maxBodyBytes: number;
  /**
   * How long a request's headers may take to arrive (the app bounds the body itself); the runtime's default when unset.
   */
  headersTimeoutMs?: number;
  /** How long a connection may sit without a request; the runtime's default when unset. */
  idleTimeoutMs?: number;
  /** When a response is a stream, when its body ends (a runtime's idle bound must not cut it before). */
  streamEnded?: (response: Response) => Promise<void> | undefined;
}

/** A listening server, as an entry point gets it from its runtime. */
export interface Listener {
  /** The port actually bound (PORT=0 asks for any free one). */
  readonly port: number;
  /** Stops accepting connections; resolves once the runtime has finished the requests in flight. */
  stop(): Promise<void>;
  /** Closes every connection now, requests in flight included (a no-op where the runtime cannot). */
  abort(): Promise<void>;
}

/**
 * Counts requests between the handler's start and its answer, so shutdown
 * knows when the last one is done whatever the runtime reports.
 */
export function createInFlight() {
  let count = 0;
  let waiters: (() => void)[] = [];
  const settle = (): void => {
    if (--count > 0) return;
    for (const wake of waiters) wake();
    waiters = [];
  };
  return {
    get count(): number {
      return count;
    },
    wrap(handler: (request: Request) => Promise<Response>): (request: Request) => Promise<Response> {
      return async (request) => {
        count++;
        try {
          return await handler(request);
        } finally {
          settle();
        }
      };
    },
    /** @returns a promise settled when no request is in flight */
    idle(): Promise<void> {
      return count === 0 ? Promise.resolve() : new Promise((resolve) => waiters.push(resolve));
    },
  };
}

/**
 * The graceful stop: stop accepting, let requests in flight finish within
 * `graceMs`, cut the rest, then close the service's own resources.
 *
 * @returns whether every request in flight finished within the grace period
 */
export async function shutDown(options: {
  listener: Listener;
  inFlight: { readonly count: number; idle(): Promise<void> };
  graceMs: number;
  closeService: () => Promise<void>;
  logger: Logger;
  signal: string;
  /** Runs when the grace period ends with requests in flight, before they are cut (streams get their last event). */
  beforeAbort?: () => Promise<void>;
}): Promise<boolean> {
  const { listener, inFlight, logger } = options;
  logger.info("shutdown_started", { signal: options.signal, in_flight: inFlight.count, grace_ms: options.graceMs });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), options.graceMs)));
  const drained = Promise.all([listener.stop(), inFlight.idle()]).then(() => true as const);
  const finished = await Promise.race([drained, expired]);
  clearTimeout(timer);
  if (!finished) {
    logger.warn("shutdown_grace_exceeded", { in_flight: inFlight.count, grace_ms: options.graceMs });
    if (options.beforeAbort) {
      // What the hook sent (a stream's last event) must reach the client before its connection is cut.
      await options.beforeAbort();
      await Promise.race([drained, new Promise((resolve) => setTimeout(resolve, 1_000))]);
    }
    await listener.abort();
  }
  try {
    await options.closeService();
  } catch (error) {
    logger.error("shutdown_close_failed", { error: error instanceof Error ? error.message : String(error) });
  }
  logger.info("shutdown_complete", { drained: finished });
  return finished;
}
