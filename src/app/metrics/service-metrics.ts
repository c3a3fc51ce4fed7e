/** @module The service metrics interface and the LLM token-budget observer it feeds. */
import type { LlmCallObserver } from "../../adapters/llm/calls/groq-completer.ts";
import type { SpeechObserver } from "../../adapters/speech/piece-transcription.ts";
import type { YoutubeObserver } from "../../adapters/youtube/observed-call.ts";
import type { RouteOutcome } from "../../adapters/youtube/routed-transcript-source.ts";
import type { UsageObserver } from "../../adapters/usage/metered-request.ts";
import type { CacheLookup } from "../../domain/ports.ts";
import type { RequestFacts } from "../log/request-log.ts";

/**
 * Where the LLM token budget reports its state. Each call sets the figure it
 * names; none may throw, and each must be cheap (it runs on every LLM call).
 */
export interface LlmBudgetObserver {
  /** Tokens left in the budget's current window. */
  remaining(tokens: number): void;
  /** Calls waiting for tokens. */
  queued(length: number): void;
  /** How long a call waited for tokens before it was sent (0 when it did not wait). */
  waited(seconds: number): void;
}

/**
 * The service's own metrics, as the composition root wires them into the
 * adapters. A type only: the Prometheus implementation
 * (`prometheus-metrics.ts`) is loaded when `ADMIN_PORT` is set, never
 * otherwise, so a service without an admin port pays nothing for it.
 */
export interface ServiceMetrics {
  /** One answered request, from the facts its log line has (status, error code, cache, duration). */
  request(status: number, facts: RequestFacts, ms: number): void;
  youtube: YoutubeObserver;
  llm: LlmCallObserver;
  llmBudget: LlmBudgetObserver;
  /** Speech-to-text uploads and their audio seconds. */
  speech?: SpeechObserver;
  /** Answers charged to their keys' usage: requests and video minutes, summed over keys. */
  usage?: UsageObserver;
  transcriptLookup(result: CacheLookup): void;
  answerLookup(result: CacheLookup): void;
  /** One try of a transcript fetch on an egress route (`direct` or `host:port`) ended so. */
  youtubeRoute(route: string, outcome: RouteOutcome): void;
  /** Reads at each scrape whether each egress route is usable (its breaker not open). */
  watchRoutes(routes: () => { route: string; up: boolean }[]): void;
  /** Reads at each scrape whether each configured InnerTube client was last served (1) or refused as retired (0). */
  watchClients(clients: () => { client: string; version: string; up: boolean }[]): void;
  /** Reads the number of requests in flight at each scrape. */
  watchInFlight(count: () => number): void;
  /** Redis became reachable (true) or unreachable (false); the gauge appears with the first call. */
  redisAvailability(available: boolean): void;
  /** @returns the Prometheus text exposition of every metric */
  render(): Promise<string>;
  /** The exposition's content type, for the `/metrics` response. */
  readonly contentType: string;
}

const UNOBSERVED: LlmBudgetObserver = { remaining() {}, queued() {}, waited() {} };

/**
 * The observer to give the LLM token budget (built in `src/app/compose/llm.ts`,
 * where `io.metrics` is at hand).
 *
 * @param metrics the service's metrics, undefined without `ADMIN_PORT`
 * @returns the metrics' budget gauges and histogram, or an observer that records nothing
 */
export function llmBudgetObserver(metrics: ServiceMetrics | undefined): LlmBudgetObserver {
  return metrics?.llmBudget ?? UNOBSERVED;
}
