/** @module End-to-end tests of the admin port: exact metric counts, health and readiness after SIGTERM. */
import { describe, expect, test } from "bun:test";
import { ANSWERS } from "../support/fake/llm.ts";
import { watchUrl } from "../support/fixtures.ts";
import { servicePerTest } from "../support/service/per-test.ts";
import { parseSamples, sampleKey } from "../support/prometheus-text.ts";
import { promtoolProblems } from "../support/promtool.ts";
import { adminUrlOf, postChat, type RunningService, targetFromEnv } from "../support/service/process.ts";

const KEY = "e2e-metrics-key-0123456789";
const rig = servicePerTest(({ youtube, llm }) => ({
  API_KEYS: KEY,
  ADMIN_PORT: "0",
  YOUTUBE_BASE_URL: youtube.origin,
  YOUTUBE_CLIENTS: "ANDROID:21.26.364",
  GROQ_API_KEY: "gsk_fake_metrics",
  GROQ_BASE_URL: llm.baseUrl,
  GROQ_MODEL: "fake-model",
}));

/** The service with an admin port on any free port; one InnerTube client, so YouTube's call counts are few and fixed. */
async function start(env: Record<string, string> = {}): Promise<{ service: RunningService; admin: string }> {
  const service = await rig.start(env);
  const admin = await adminUrlOf(service);
  return { service, admin };
}

const chat = (url: string, body: unknown) => postChat(url, body, { "x-api-key": KEY });
const scrape = async (admin: string) => parseSamples(await (await fetch(`${admin}/metrics`)).text());

const k = sampleKey;
/** What the known mix of requests below must add, exactly. */
const EXPECTED: Record<string, number> = {
  [k("vcs_http_requests_total", { status: "200", code: "none" })]: 2,
  [k("vcs_http_requests_total", { status: "400", code: "invalid_request" })]: 1,
  [k("vcs_http_requests_total", { status: "404", code: "not_found" })]: 3,
  [k("vcs_http_requests_total", { status: "422", code: "video_unavailable" })]: 1,
  [k("vcs_http_requests_total", { status: "503", code: "upstream_blocked" })]: 2,
  [k("vcs_http_requests_total", { status: "429", code: "rate_limited" })]: 1,
  [k("vcs_http_request_duration_seconds_count", { cache: "hit" })]: 1,
  [k("vcs_http_request_duration_seconds_count", { cache: "miss" })]: 1,
  [k("vcs_http_request_duration_seconds_count", { cache: "none" })]: 8,
  [k("vcs_youtube_requests_total", { call: "player", outcome: "ok" })]: 1,
  [k("vcs_youtube_requests_total", { call: "player", outcome: "unavailable" })]: 1,
  [k("vcs_youtube_requests_total", { call: "player", outcome: "blocked" })]: 1,
  [k("vcs_youtube_requests_total", { call: "watch_page", outcome: "blocked" })]: 0,
  [k("vcs_youtube_requests_total", { call: "caption", outcome: "ok" })]: 1,
  [k("vcs_youtube_request_duration_seconds_count", { call: "player" })]: 3,
  [k("vcs_llm_calls_total", { outcome: "ok", model: "fake-model" })]: 1,
  [k("vcs_llm_calls_total", { outcome: "429", model: "fake-model" })]: 1,
  [k("vcs_llm_tokens_total", { direction: "input" })]: 1234,
  [k("vcs_llm_tokens_total", { direction: "output" })]: 56,
  [k("vcs_cache_lookups_total", { cache: "answer", result: "miss" })]: 4,
  [k("vcs_cache_lookups_total", { cache: "answer", result: "hit" })]: 1,
  [k("vcs_cache_lookups_total", { cache: "answer", result: "shared" })]: 0,
  [k("vcs_cache_lookups_total", { cache: "transcript", result: "miss" })]: 3,
  [k("vcs_cache_lookups_total", { cache: "transcript", result: "hit" })]: 1,
  [k("vcs_refused_requests_total", { reason: "rate_limited" })]: 1,
  [k("vcs_refused_requests_total", { reason: "overloaded" })]: 0,
};

describe(`metrics and health on the admin port (${targetFromEnv()})`, () => {
  test(
    "a known mix of requests moves every counter by exactly the expected amount, and promtool accepts the exposition",
    async () => {
      // RATE_LIMIT 5/hour: the five requests that cost (hits and upstream failures count, a 400 does not) use it up.
      const { service, admin } = await start({ RATE_LIMIT: "5/hour" });
      rig.youtube.setWatch("recaptcha");
      rig.llm.respondWith(() => ({ content: ANSWERS.en!, promptTokens: 1234, completionTokens: 56 }));
      const before = await scrape(admin);
      const statuses: number[] = [];
      for (const path of ["/metrics", "/healthz", "/readyz"]) {
        statuses.push((await fetch(`${service.url}${path}`)).status);
      }
      statuses.push((await chat(service.url, { url: watchUrl("normal"), langauge: "en" })).status);
      const question = { url: watchUrl("normal"), prompt: "What does the reviewer think of the keyboard?" };
      statuses.push((await chat(service.url, question)).status); // miss: player, caption, one LLM call
      statuses.push((await chat(service.url, question)).status); // hit
      statuses.push((await chat(service.url, { url: watchUrl("unavailable") })).status); // 422 from the player answer
      rig.youtube.setPlayerGate({ blockKeyless: true });
      statuses.push((await chat(service.url, { url: watchUrl("twoTracks") })).status); // bot check: 503 at once, no watch page (issue 21)
      rig.youtube.setPlayerGate({});
      // Longer than the request's deadline: refused at once rather than waited out.
      rig.llm.respondWith(() => ({ status: 429, headers: { "retry-after": "600" } }));
      statuses.push((await chat(service.url, { ...question, prompt: "And the battery?" })).status); // transcript hit, LLM 429: 503
      statuses.push((await chat(service.url, question)).status); // over the rate limit
      expect(statuses).toEqual([404, 404, 404, 400, 200, 200, 422, 503, 503, 429]);
      const after = await scrape(admin);
      const moved = Object.fromEntries(
        Object.keys(EXPECTED).map((key) => [key, (after.get(key) ?? 0) - (before.get(key) ?? 0)]),
      );
      expect(moved).toEqual(EXPECTED);
      expect(after.get("vcs_http_requests_in_flight")).toBe(0);
      expect(promtoolProblems(await (await fetch(`${admin}/metrics`)).text())).toEqual([]);
    },
    30_000,
  );

  test("/healthz and /readyz answer on the admin port only; the public port keeps its 404 for them", async () => {
    const { service, admin } = await start();
    expect(await (await fetch(`${admin}/healthz`)).json()).toEqual({ status: "ok" });
    const ready = await fetch(`${admin}/readyz`);
    expect(ready.status).toBe(200);
    for (const path of ["/metrics", "/healthz", "/readyz"]) {
      const response = await fetch(`${service.url}${path}`);
      expect(response.status).toBe(404);
      expect((await response.json()).error.code).toBe("not_found");
    }
    expect((await fetch(`${admin}/chat`, { method: "POST" })).status).toBe(404);
  }, 30_000);

  test("after SIGTERM /readyz is 503 at once while the request in flight finishes with 200", async () => {
    const { service, admin } = await start({ SHUTDOWN_GRACE_MS: "20000" });
    rig.llm.respondWith(() => ({ content: ANSWERS.en!, delayMs: 1_500 }));
    let finished = false;
    const inFlight = chat(service.url, { url: watchUrl("normal"), prompt: "A slow question?" }).finally(
      () => (finished = true),
    );
    const deadline = Date.now() + 10_000;
    while (rig.llm.calls.length === 0 && Date.now() < deadline) await Bun.sleep(10);
    expect((await scrape(admin)).get("vcs_http_requests_in_flight")).toBe(1);
    service.process.kill("SIGTERM");
    let readyz = await fetch(`${admin}/readyz`);
    while (readyz.status === 200 && Date.now() < deadline) readyz = await fetch(`${admin}/readyz`);
    expect(readyz.status).toBe(503);
    expect(await readyz.json()).toMatchObject({ status: "not_ready", reason: "shutting_down" });
    expect(finished).toBe(false);
    expect((await fetch(`${admin}/healthz`)).status).toBe(200);
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(await service.process.exited).toBe(0);
  }, 30_000);
});
