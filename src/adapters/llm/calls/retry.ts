/** @module LLM retry timing: a per-request wait budget, server-requested delays and jittered backoff. */
/**
 * How long one request may spend waiting between LLM retries, all calls
 * together. Concurrent waits are added up, so the bound is conservative.
 */
export interface RetryBudget {
  /**
   * Takes `ms` from the budget when it has that much left.
   *
   * @returns whether the wait fits (and was taken)
   */
  take(ms: number): boolean;
}

/** @param totalMs the whole budget */
export function createRetryBudget(totalMs: number): RetryBudget {
  let left = totalMs;
  return {
    take(ms) {
      if (ms > left) return false;
      left -= ms;
      return true;
    },
  };
}

/**
 * The wait a server asked for: `retry-after-ms`, or `retry-after` in seconds
 * or as an HTTP date.
 *
 * @param headers the failed response's headers
 * @param now clock in ms since the epoch, for HTTP dates
 * @returns the wait in ms, or undefined when the server named none
 */
export function requestedDelayMs(headers: Headers | undefined, now: () => number = Date.now): number | undefined {
  const ms = Number.parseFloat(headers?.get("retry-after-ms") ?? "");
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers?.get("retry-after")?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now());
}

/**
 * Exponential backoff with jitter when the server named no wait: about
 * 0.5 s, 1 s, 2 s ... capped at 8 s (the groq-sdk's own schedule).
 *
 * @param attempt retries already made (0 for the first)
 * @param random source in [0, 1)
 * @returns the wait in ms
 */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(500 * 2 ** attempt, 8000);
  return Math.round(base * (1 - 0.25 * random()));
}

/**
 * Sleeps, waking early with a rejection when `signal` aborts.
 *
 * @throws the signal's reason when aborted
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
