/** @module Tests of the Prometheus metrics: requests, upstream calls, budget, labels free of private data. */
import { describe, expect, test } from "bun:test";
import { createPrometheusMetrics } from "../../../src/app/metrics/prometheus-metrics.ts";
import { llmBudgetObserver } from "../../../src/app/metrics/service-metrics.ts";
import { parseSamples, sample, sampleKey } from "../../support/prometheus-text.ts";

const scrape = async (metrics: ReturnType<typeof createPrometheusMetrics>) => parseSamples(await metrics.render());

describe("createPrometheusMetrics()", () => {
  test("request() counts by status and error code, times by answer-cache result, and counts refusals", async () => {
    const metrics = createPrometheusMetrics({ defaultMetrics: false });
    metrics.request(200, { cache: "hit" }, 0.4);
    metrics.request(200, { cache: "hit" }, 0.6);
    metrics.request(200, { cache: "miss" }, 1500);
    metrics.request(503, { errorCode: "overloaded" }, 1);
    metrics.request(429, { errorCode: "rate_limited" }, 1);
    metrics.request(429, { errorCode: "quota_exceeded" }, 1);
    metrics.request(500, {}, 2);
    const s = await scrape(metrics);
    expect(sample(s, "vcs_http_requests_total", { status: "200", code: "none" })).toBe(3);
    expect(sample(s, "vcs_http_requests_total", { status: "503", code: "overloaded" })).toBe(1);
    expect(sample(s, "vcs_http_requests_total", { status: "500", code: "internal_error" })).toBe(1);
    expect(sample(s, "vcs_http_request_duration_seconds_count", { cache: "hit" })).toBe(2);
    expect(sample(s, "vcs_http_request_duration_seconds_sum", { cache: "hit" })).toBeCloseTo(0.001, 9);
    expect(sample(s, "vcs_http_request_duration_seconds_bucket", { cache: "hit", le: "0.0005" })).toBe(1);
    expect(sample(s, "vcs_http_request_duration_seconds_bucket", { cache: "miss", le: "1" })).toBe(0);
    expect(sample(s, "vcs_http_request_duration_seconds_bucket", { cache: "miss", le: "2.5" })).toBe(1);
    expect(sample(s, "vcs_http_request_duration_seconds_count", { cache: "none" })).toBe(4);
    expect(sample(s, "vcs_refused_requests_total", { reason: "overloaded" })).toBe(1);
    expect(sample(s, "vcs_refused_requests_total", { reason: "rate_limited" })).toBe(1);
    expect(sample(s, "vcs_refused_requests_total", { reason: "quota_exceeded" })).toBe(1);
  });

  test("records the time each LLM answer waited for its share of the budget, from its request facts", async () => {
    const metrics = createPrometheusMetrics({ defaultMetrics: false });
    metrics.request(
      200,
      { cache: "miss", usage: { calls: 3, inputTokens: 5, outputTokens: 6, budgetWaitMs: 4_000 } },
      5_000,
    );
    metrics.request(200, { cache: "miss", usage: { calls: 1, inputTokens: 5, outputTokens: 6, budgetWaitMs: 0 } }, 300);
    metrics.request(200, { cache: "hit" }, 1);
    const s = await scrape(metrics);
    expect(sample(s, "vcs_llm_request_budget_wait_seconds_count")).toBe(2);
    expect(sample(s, "vcs_llm_request_budget_wait_seconds_sum")).toBe(4);
    expect(sample(s, "vcs_llm_request_budget_wait_seconds_bucket", { le: "0" })).toBe(1);
  });

  test("never puts a video id, key id or prompt in a label, whatever the request facts hold", async () => {
    const metrics = createPrometheusMetrics({ defaultMetrics: false });
    metrics.request(200, {
      keyId: "key_secretid0001",
      videoId: "GJLlxj_dtq8",
      promptLength: 12,
      cache: "miss",
      usage: { calls: 1, inputTokens: 5, outputTokens: 6 },
    }, 3);
    const text = await metrics.render();
    for (const leaked of ["key_secretid0001", "GJLlxj_dtq8"]) expect(text).not.toContain(leaked);
  });

  test("YouTube calls by kind and outcome, LLM attempts by outcome and model with their tokens, cache lookups by cache and result", async () => {
    const metrics = createPrometheusMetrics({ defaultMetrics: false, models: ["m-a", "m-b"] });
    metrics.youtube("player", "blocked", 0.05);
    metrics.youtube("player", "ok", 0.1);
    metrics.youtube("caption", "timeout", 10);
    metrics.llm("429", 0.2, undefined, "m-a");
    metrics.llm("ok", 0.9, { input: 1200, output: 80 }, "m-b");
    metrics.llm("ok", 0.3, { input: 300, output: 20 }, "m-b");
    metrics.transcriptLookup("shared");
    metrics.answerLookup("hit");
    metrics.answerLookup("hit");
    const s = await scrape(metrics);
    expect(sample(s, "vcs_youtube_requests_total", { call: "player", outcome: "blocked" })).toBe(1);
    expect(sample(s, "vcs_youtube_requests_total", { call: "caption", outcome: "timeout" })).toBe(1);
    expect(sample(s, "vcs_youtube_request_duration_seconds_count", { call: "player" })).toBe(2);
    expect(sample(s, "vcs_llm_calls_total", { outcome: "429", model: "m-a" })).toBe(1);
    expect(sample(s, "vcs_llm_calls_total", { outcome: "ok", model: "m-b" })).toBe(2);
    expect(sample(s, "vcs_llm_calls_total", { outcome: "ok", model: "m-a" })).toBe(0);
    expect(sample(s, "vcs_llm_call_duration_seconds_count")).toBe(3);
    expect(sample(s, "vcs_llm_tokens_total", { direction: "input" })).toBe(1500);
    expect(sample(s, "vcs_llm_tokens_total", { direction: "output" })).toBe(100);
    expect(sample(s, "vcs_cache_lookups_total", { cache: "transcript", result: "shared" })).toBe(1);
    expect(sample(s, "vcs_cache_lookups_total", { cache: "answer", result: "hit" })).toBe(2);
    // Every closed label value is exposed from the start at 0, so rate() and ratios work before the first event.
    expect(s.get('vcs_youtube_requests_total{call="watch_page",outcome="unavailable"}')).toBe(0);
    expect(s.get(sampleKey("vcs_llm_calls_total", { outcome: "413", model: "m-a" }))).toBe(0);
  });

  test("a retired client is its own outcome, at 0 from the start; each configured client has a gauge read at scrape", async () => {
    const metrics = createPrometheusMetrics({ defaultMetrics: false });
    expect((await scrape(metrics)).get('vcs_youtube_requests_total{call="player",outcome="retired"}')).toBe(0);
    let up = true;
    metrics.watchClients(
      () => [{ client: "ANDROID", version: "20.10.38", up }, { client: "IOS", version: "21.26.4", up: true }],
    );
    metrics.youtube("player", "retired", 0.02);
    expect(sample(await scrape(metrics), "vcs_youtube_client_up", { client: "ANDROID", version: "20.10.38" })).toBe(1);
    up = false;
    const s = await scrape(metrics);
    expect(sample(s, "vcs_youtube_requests_total", { call: "player", outcome: "retired" })).toBe(1);
    expect(sample(s, "vcs_youtube_client_up", { client: "ANDROID", version: "20.10.38" })).toBe(0);
    expect(sample(s, "vcs_youtube_client_up", { client: "IOS", version: "21.26.4" })).toBe(1);
  });

  test("the LLM budget observer sets the remaining tokens and queue length, and records waits", async () => {
    const metrics = createPrometheusMetrics({ defaultMetrics: false });
    const budget = llmBudgetObserver(metrics);
    budget.remaining(5400);
    budget.remaining(3100);
    budget.queued(4);
    budget.waited(0);
    budget.waited(2);
    // Without metrics (no ADMIN_PORT) the budget gets an observer that records nothing and never throws.
    llmBudgetObserver(undefined).remaining(1);
    const s = await scrape(metrics);
    expect(sample(s, "vcs_llm_budget_remaining_tokens")).toBe(3100);
    expect(sample(s, "vcs_llm_budget_queue_length")).toBe(4);
    expect(sample(s, "vcs_llm_budget_wait_seconds_count")).toBe(2);
    expect(sample(s, "vcs_llm_budget_wait_seconds_sum")).toBe(2);
    expect(sample(s, "vcs_llm_budget_wait_seconds_bucket", { le: "0" })).toBe(1);
  });

  test("requests in flight are read at each scrape; vcs_redis_up appears once Redis is watched", async () => {
    const metrics = createPrometheusMetrics({ defaultMetrics: false });
    let inFlight = 3;
    metrics.watchInFlight(() => inFlight);
    let s = await scrape(metrics);
    expect(sample(s, "vcs_http_requests_in_flight")).toBe(3);
    expect(s.has("vcs_redis_up")).toBe(false);
    inFlight = 0;
    metrics.redisAvailability(false);
    s = await scrape(metrics);
    expect(sample(s, "vcs_http_requests_in_flight")).toBe(0);
    expect(s.get("vcs_redis_up")).toBe(0);
    metrics.redisAvailability(true);
    expect((await scrape(metrics)).get("vcs_redis_up")).toBe(1);
  });

  test("every service metric has HELP and TYPE and the vcs_ prefix; the default process metrics are there too", async () => {
    const text = await createPrometheusMetrics().render();
    const own = [...text.matchAll(/^# TYPE (vcs_\w+) (\w+)$/gm)].map((m) => m[1]!);
    expect(own.sort()).toEqual([
      "vcs_cache_lookups_total",
      "vcs_http_request_duration_seconds",
      "vcs_http_requests_in_flight",
      "vcs_http_requests_total",
      "vcs_llm_budget_queue_length",
      "vcs_llm_budget_remaining_tokens",
      "vcs_llm_budget_wait_seconds",
      "vcs_llm_call_duration_seconds",
      "vcs_llm_calls_total",
      "vcs_llm_request_budget_wait_seconds",
      "vcs_llm_tokens_total",
      "vcs_refused_requests_total",
      "vcs_stt_audio_seconds_total",
      "vcs_stt_uploads_total",
      "vcs_usage_answered_requests_total",
      "vcs_usage_video_seconds_total",
      "vcs_youtube_client_up",
      "vcs_youtube_request_duration_seconds",
      "vcs_youtube_requests_total",
      "vcs_youtube_route_requests_total",
      "vcs_youtube_route_up",
    ]);
    for (const name of own) expect(text).toMatch(new RegExp(`^# HELP ${name} \\S`, "m"));
    expect(text).toContain("process_cpu_seconds_total");
    expect(text).toContain("process_start_time_seconds");
    // Base units: durations in seconds, never milliseconds.
    expect(text).not.toMatch(/^vcs_\w*_(ms|milliseconds)\b/m);
  });
});
