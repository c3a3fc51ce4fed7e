/** @module Prometheus metrics of upstream calls to YouTube and the LLM, and of the token budget. */
import { Gauge, Histogram, type Registry } from "prom-client";
import type { LlmCallObserver, LlmOutcome } from "../../adapters/llm/calls/groq-completer.ts";
import type { YoutubeCall, YoutubeObserver, YoutubeOutcome } from "../../adapters/youtube/observed-call.ts";
import { batchedCounter, bind, type Increment } from "./label-children.ts";
import type { LlmBudgetObserver } from "./service-metrics.ts";

const YOUTUBE_CALLS: YoutubeCall[] = ["player", "watch_page", "caption"];
const YOUTUBE_OUTCOMES: YoutubeOutcome[] = ["ok", "blocked", "unavailable", "retired", "timeout", "error"];
const LLM_OUTCOMES: LlmOutcome[] = ["ok", "429", "413", "5xx", "timeout", "model_unavailable", "error"];
/** Upstream calls: a fast YouTube answer is tens of ms, a slow LLM call a minute. */
const UPSTREAM_BUCKETS = [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/**
 * @param registry where the metrics are registered
 * @param models the configured chain of models, whose LLM call counters are exposed at 0 from the start
 * @returns the observers of YouTube calls, of LLM attempts, and of the LLM token budget
 */
export function createUpstreamMetrics(
  registry: Registry,
  models: readonly string[] = [],
): { youtube: YoutubeObserver; llm: LlmCallObserver; llmBudget: LlmBudgetObserver } {
  const registers = [registry];
  const youtubeCalls = batchedCounter({
    name: "vcs_youtube_requests_total",
    help: "YouTube calls by kind (player, watch_page, caption) and outcome (ok, blocked, unavailable, " +
      "retired: the client identity refused, timeout, error).",
    labelNames: ["call", "outcome"],
    registers,
  });
  const youtubeSeconds = new Histogram({
    name: "vcs_youtube_request_duration_seconds",
    help: "Duration of YouTube calls, request and reading of the answer, by kind.",
    labelNames: ["call"],
    buckets: UPSTREAM_BUCKETS,
    registers,
  });
  const youtubeCount = bind(
    YOUTUBE_CALLS,
    (call) => bind(YOUTUBE_OUTCOMES, (outcome) => youtubeCalls.child(call, outcome)),
  );
  const youtubeTime = bind(YOUTUBE_CALLS, (call) => youtubeSeconds.labels(call));

  const llmCalls = batchedCounter({
    name: "vcs_llm_calls_total",
    help: "LLM call attempts by outcome (ok, 429, 413, 5xx, timeout, model_unavailable, error) and model; each " +
      "retry is an attempt.",
    labelNames: ["outcome", "model"],
    registers,
  });
  const llmSeconds = new Histogram({
    name: "vcs_llm_call_duration_seconds",
    help: "Duration of LLM call attempts, whatever their outcome.",
    buckets: UPSTREAM_BUCKETS,
    registers,
  });
  const llmTokens = batchedCounter({
    name: "vcs_llm_tokens_total",
    help: "LLM tokens as the LLM counted them, by direction (input: prompt, output: answer).",
    labelNames: ["direction"],
    registers,
  });
  // One set of children per model: the models are the configured chain's, a closed list.
  const llmCounts = new Map<string, Record<LlmOutcome, Increment>>();
  const llmCount = (model: string) => {
    let counts = llmCounts.get(model);
    if (!counts) llmCounts.set(model, counts = bind(LLM_OUTCOMES, (outcome) => llmCalls.child(outcome, model)));
    return counts;
  };
  for (const model of models) llmCount(model);
  const inputTokens = llmTokens.child("input");
  const outputTokens = llmTokens.child("output");

  const budgetRemaining = new Gauge({
    name: "vcs_llm_budget_remaining_tokens",
    help: "Tokens left in the LLM budget's current window.",
    registers,
  });
  const budgetQueue = new Gauge({
    name: "vcs_llm_budget_queue_length",
    help: "LLM calls waiting for the budget to have tokens.",
    registers,
  });
  const budgetWait = new Histogram({
    name: "vcs_llm_budget_wait_seconds",
    help: "How long LLM calls waited for the budget before being sent.",
    buckets: [0, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers,
  });

  return {
    youtube(call, outcome, seconds) {
      youtubeCount[call][outcome].inc();
      youtubeTime[call].observe(seconds);
    },
    llm(outcome, seconds, tokens, model = "unknown") {
      llmCount(model)[outcome].inc();
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
  };
}
