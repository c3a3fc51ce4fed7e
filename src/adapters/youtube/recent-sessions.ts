/** @module Keeps recently read player responses for a few minutes, to reuse for another reading. */
/**
 * What was read about videos moments ago (their player responses), so that
 * a second reading of the same video (another caption track, fetched right
 * after the first) costs one caption request rather than two requests.
 * Entries live `ttlMs` (caption URLs stay valid for hours; this is minutes)
 * and at most `max` are kept, the oldest dropped first (a few kB each).
 */
export interface RecentSessions<T> {
  get(videoId: string): T | undefined;
  set(videoId: string, session: T): void;
}

/**
 * @param options how long an entry is kept, how many at most, and the clock (ms)
 * @returns an empty store
 */
export function createRecentSessions<T>(
  options: { ttlMs?: number; max?: number; now?: () => number } = {},
): RecentSessions<T> {
  const ttlMs = options.ttlMs ?? 60_000;
  const max = options.max ?? 256;
  const now = options.now ?? Date.now;
  const entries = new Map<string, { session: T; at: number }>();
  return {
    get(videoId) {
      const entry = entries.get(videoId);
      if (!entry) return undefined;
      if (now() - entry.at < ttlMs) return entry.session;
      entries.delete(videoId);
      return undefined;
    },
    set(videoId, session) {
      entries.delete(videoId);
      entries.set(videoId, { session, at: now() });
      if (entries.size > max) entries.delete(entries.keys().next().value!);
    },
  };
}
