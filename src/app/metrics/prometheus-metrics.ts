import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { LlmOutcome } from "../../adapters/llm/groq-completer.ts";
import type { YoutubeCall, YoutubeOutcome } from "../../adapters/youtube/observed-call.ts";
import type { CacheLookup } from "../../domain/ports.ts";
import type { RequestFacts } from "../request-log.ts";
import { createHttpMetrics } from "./http-metrics.ts";
import { bind, zeroed } from "./label-children.ts";
import type { ServiceMetrics } from "./service-metrics.ts";

const YOUTUBE_CALLS: YoutubeCall[] = ["player", "watch_page", "caption"];
const YOUTUBE_OUTCOMES: YoutubeOutcome[] = ["ok", "blocked", "unavailable", "timeout", "error"];
const LLM_OUTCOMES: LlmOutcome[] = ["ok", "429", "413", "5xx", "timeout", "error"];
const LOOKUPS: CacheLookup[] = ["hit", "miss", "shared"];
/** Upstream calls: a fast YouTube answer is tens of ms, a slow LLM call a minute. */
const REDIS_UP = "vcs_redis_up";
const UPSTREAM_BUCKETS = [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/**
 * The service's metrics on prom-client, in a registry of their own (not the
 * library's global one), with the default process metrics. Every label value
 * comes from a closed list (a status, an error code, a call kind): never a
 * video id, a key or a prompt. Label children are bound once here, so that
 * recording is a map lookup and an addition.
 *
 * @param options.defaultMetrics whether to add prom-client's process and runtime metrics (on by default)
 * @returns the metrics, ready to wire and to render
 */
export function createPrometheusMetrics(options: { defaultMetrics?: boolean } = {}): ServiceMetrics {
  const registry = new Registry();
  if (options.defaultMetrics !== false) collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const http = createHttpMetrics(registry);

  const youtubeCalls = new Counter({ name: "vcs_youtube_requests_total", help: "YouTube calls by kind (player, watch_page, caption) and outcome (ok, blocked, unavailable, timeout, error).", labelNames: ["call", "outcome"], registers });
  const youtubeSeconds = new Histogram({ name: "vcs_youtube_request_duration_seconds", help: "Duration of YouTube calls, request and reading of the answer, by kind.", labelNames: ["call"], buckets: UPSTREAM_BUCKETS, registers });
  const youtubeCount = bind(YOUTUBE_CALLS, (call) => bind(YOUTUBE_OUTCOMES, (outcome) => zeroed(youtubeCalls.labels(call, outcome))));
  const youtubeTime = bind(YOUTUBE_CALLS, (call) => youtubeSeconds.labels(call));

  const llmCalls = new Counter({ name: "vcs_llm_calls_total", help: "LLM call attempts by outcome (ok, 429, 413, 5xx, timeout, error); each retry is an attempt.", labelNames: ["outcome"], registers });
  const llmSeconds = new Histogram({ name: "vcs_llm_call_duration_seconds", help: "Duration of LLM call attempts, whatever their outcome.", buckets: UPSTREAM_BUCKETS, registers });
  const llmTokens = new Counter({ name: "vcs_llm_tokens_total", help: "LLM tokens as the LLM counted them, by direction (input: prompt, output: answer).", labelNames: ["direction"], registers });
  const llmCount = bind(LLM_OUTCOMES, (outcome) => zeroed(llmCalls.labels(outcome)));
  const inputTokens = zeroed(llmTokens.labels("input"));
  const outputTokens = zeroed(llmTokens.labels("output"));

  const budgetRemaining = new Gauge({ name: "vcs_llm_budget_remaining_tokens", help: "Tokens left in the LLM budget's current window.", registers });
  const budgetQueue = new Gauge({ name: "vcs_llm_budget_queue_length", help: "LLM calls waiting for the budget to have tokens.", registers });
  const budgetWait = new Histogram({ name: "vcs_llm_budget_wait_seconds", help: "How long LLM calls waited for the budget before being sent.", buckets: [0, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60], registers });

  const lookups = new Counter({ name: "vcs_cache_lookups_total", help: "Cache lookups by cache (transcript, answer) and result (hit; shared: joined an equal lookup in flight; miss).", labelNames: ["cache", "result"], registers });
  const transcriptLookups = bind(LOOKUPS, (result) => zeroed(lookups.labels("transcript", result)));
  const answerLookups = bind(LOOKUPS, (result) => zeroed(lookups.labels("answer", result)));

  const redisUp = new Gauge({ name: REDIS_UP, help: "Whether Redis is reachable (1) or not (0); absent when REDIS_URL is not set.", registers: [] });

  return {
    request: (status: number, facts: RequestFacts, ms: number) => http.request(status, facts, ms),
    youtube(call, outcome, seconds) {
      youtubeCount[call][outcome].inc();
      youtubeTime[call].observe(seconds);
    },
    llm(outcome, seconds, tokens) {
      llmCount[outcome].inc();
      llmSeconds.observe(seconds);
      if (tokens) {
        inputTokens.inc(tokens.input);
        outputTokens.inc(tokens.output);
      }
    },
    llmBudget: {
      remaining: (tokens) => budgetRemaining.set(tokens),
      queued: (length) => budgetQueue.set(length),
      waited: (seconds) => budgetWait.observe(seconds),
    },
    transcriptLookup: (result) => transcriptLookups[result].inc(),
    answerLookup: (result) => answerLookups[result].inc(),
    watchInFlight: (count) => http.watchInFlight(count),
    redisAvailability(available) {
      if (!registry.getSingleMetric(REDIS_UP)) registry.registerMetric(redisUp);
      redisUp.set(available ? 1 : 0);
    },
    render: () => registry.metrics(),
    contentType: registry.contentType,
  };
}
