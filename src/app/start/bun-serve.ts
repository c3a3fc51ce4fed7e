/** @module `Bun.serve` for the service: the app's own body limit, and Bun's idle bound kept off a request in work. */
import type { Listener, ServeOptions } from "./shutdown.ts";

/**
 * Serves the app on Bun. The app answers 413 itself, with the JSON error body, before reading a body
 * declared too large and once a chunked one grows past the limit: Bun's own limit would answer a bare
 * 413 instead, so it is lifted. Never development mode: its error page would show a stack trace and
 * source lines to callers.
 *
 * Bun's idle timeout (whole seconds) bounds a kept-alive connection, but also cuts a request whose
 * answer takes longer (a long video): while the app has the request, its own limits (BODY_TIMEOUT_MS,
 * REQUEST_TIMEOUT_MS) bound it instead, and the idle bound is set again for after the answer. A fresh
 * connection and a request's headers get Bun's own fixed 10 s (docs/decisions.md).
 *
 * @returns the listener start-up and shutdown use
 */
export function serveBun(options: ServeOptions): Listener {
  const idleTimeout = Math.ceil((options.idleTimeoutMs ?? 10_000) / 1000);
  const server = Bun.serve({
    port: options.port,
    hostname: options.host,
    fetch: async (request, bun) => {
      bun.timeout(request, 0);
      let ended: Promise<void> | undefined;
      try {
        const response = await options.fetch(request);
        ended = options.streamEnded?.(response);
        return response;
      } finally {
        // A stream is bounded by its own limits (STREAM_TIMEOUT_MS) and keeps itself alive: the idle bound waits
        // for its end.
        if (ended) void ended.then(() => bun.timeout(request, idleTimeout), () => {});
        else bun.timeout(request, idleTimeout);
      }
    },
    idleTimeout,
    maxRequestBodySize: Number.MAX_SAFE_INTEGER,
    development: false,
  });
  return {
    port: server.port ?? options.port,
    stop: () => server.stop(false),
    abort: () => server.stop(true),
  };
}
