/** @module Sends each transcript fetch by one egress route, moving to another when YouTube blocks it. */
import { AppError, isAppError } from "../../domain/errors.ts";
import type { TranscriptSource } from "../../domain/ports.ts";
import type { Transcript, TranscriptQuery } from "../../domain/transcript.ts";
import type { RouteBreaker } from "./route-breaker.ts";
import type { YoutubeTransport } from "./transport.ts";

/** One way out to YouTube: `direct` or a proxy. */
export interface EgressRoute {
  /** Public name: `direct` or `host:port`, never credentials. */
  label: string;
  /** Key of its breaker state (no credentials either). */
  key: string;
  /**
   * Whether a new connection may leave from a new address (a proxy, perhaps a rotating gateway); false for `direct`.
   */
  renews: boolean;
  /**
   * @returns the transport one try uses for all its requests, over a new
   *   connection for a proxy (a rotating gateway then picks a new address), and `close` for when it is done
   */
  open(): { transport: YoutubeTransport; close(): void };
}

/** Outcome of one try on a route, as counted in metrics. */
export type RouteOutcome = "ok" | "blocked" | "other";

export interface RoutedOptions {
  routes: readonly EgressRoute[];
  breaker: RouteBreaker;
  /** Further tries of a blocked fetch (`YOUTUBE_BLOCK_RETRIES`). */
  blockRetries: number;
  /** Reads one transcript with every request through `transport`. */
  read(transport: YoutubeTransport, videoId: string, query: TranscriptQuery): Promise<Transcript>;
  /**
   * Whether a failed try's error is a block of its route (default: every `upstream_blocked`).
   * An `upstream_blocked` it disowns (another service's rate limit met during the read) ends the fetch as it is.
   */
  isBlock?: (error: unknown) => boolean;
  /** The source calls this as each try on a route ends (metrics). */
  observe?: (route: string, outcome: RouteOutcome) => void;
  now?: () => number;
}

/**
 * Every request of one try goes by one route (YouTube binds some URLs to the
 * address that asked). Tries start on the routes in turn, so load spreads over
 * the healthy ones. A block (`upstream_blocked`) moves the fetch to the next
 * route not yet tried, or once every route was tried to the same proxies over
 * a new connection (never `direct` again: it leaves from the same address),
 * at most `blockRetries` more times and only before the query's deadline. Any
 * other outcome ends the fetch where it is, and only a transcript closes a
 * route's breaker; a route counts one block per fetch (a failed half-open
 * trial always counts). When every breaker is open the fetch fails at once
 * with `upstream_blocked` and the earliest trial's Retry-After.
 *
 * The source tells the query's observer the route and retry count of each try.
 *
 * @returns the source
 */
export function createRoutedTranscriptSource(options: RoutedOptions): TranscriptSource {
  const now = options.now ?? Date.now;
  const isBlock = options.isBlock ?? ((error: unknown) => isAppError(error, "upstream_blocked"));
  let turn = 0;

  /** @returns the route to try, or when the earliest one may be tried again */
  async function choose(
    tried: Set<EgressRoute>,
  ): Promise<{ route: EgressRoute; trial: boolean } | { retryAt: number }> {
    const start = turn++ % options.routes.length;
    const ordered = options.routes.map((_, i) => options.routes[(start + i) % options.routes.length]!);
    // A route already tried is worth another try only if a new connection may leave from a new address.
    const candidates = [...ordered.filter((r) => !tried.has(r)), ...ordered.filter((r) => tried.has(r) && r.renews)];
    let retryAt = Number.POSITIVE_INFINITY;
    for (const route of candidates) {
      const admission = await options.breaker.admit(route.key);
      if (admission.ok) return { route, trial: admission.trial };
      retryAt = Math.min(retryAt, admission.retryAt);
    }
    return { retryAt };
  }

  return {
    async fetch(videoId, query) {
      const tried = new Set<EgressRoute>();
      // A route counts one block per fetch: a rotating gateway blocked on one address and not the next is not a route
      // in trouble.
      const counted = new Set<EgressRoute>();
      let lastBlock: AppError | undefined;
      for (let attempt = 0; attempt <= options.blockRetries; attempt++) {
        if (attempt > 0 && !timeLeft(query, now())) break;
        const chosen = await choose(tried);
        if (!("route" in chosen)) {
          // No route left to try: every breaker is open (Retry-After: the earliest trial), or the ones tried cannot
          // renew.
          if (!Number.isFinite(chosen.retryAt)) break;
          const retryAfterSeconds = Math.max(1, Math.ceil((chosen.retryAt - now()) / 1000));
          throw new AppError(
            "upstream_blocked",
            lastBlock?.message ?? "YouTube is blocking every route this server has to it; try again later",
            { retryAfterSeconds },
          );
        }
        const { route } = chosen;
        query.observer?.route?.(route.label, attempt);
        const connection = route.open();
        tried.add(route);
        try {
          const transcript = await options.read(connection.transport, videoId, query);
          options.observe?.(route.label, "ok");
          await options.breaker.passed(route.key).catch(() => {});
          return transcript;
        } catch (error) {
          if (!isBlock(error) || !isAppError(error)) {
            options.observe?.(route.label, "other");
            throw error;
          }
          options.observe?.(route.label, "blocked");
          if (!counted.has(route) || chosen.trial) await options.breaker.blocked(route.key).catch(() => {});
          counted.add(route);
          lastBlock = error;
        } finally {
          connection.close();
        }
      }
      throw lastBlock ??
        new AppError("upstream_blocked", "YouTube is blocking this server; try again later", { retryAfterSeconds: 60 });
    },
  };
}

function timeLeft(query: TranscriptQuery, at: number): boolean {
  if (query.signal?.aborted) return false;
  return query.deadline === undefined || at < query.deadline;
}
