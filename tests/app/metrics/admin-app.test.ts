/** @module Tests of the admin handler: `/healthz`, `/readyz`, `/metrics` and its 404s and 405s. */
import { describe, expect, test } from "bun:test";
import { createAdminHandler } from "../../../src/app/metrics/admin-app.ts";
import { createPrometheusMetrics } from "../../../src/app/metrics/prometheus-metrics.ts";
import { createReadiness } from "../../../src/app/metrics/readiness.ts";

function admin() {
  const readiness = createReadiness({ redisConfigured: false, redisGraceMs: 1_000 });
  const metrics = createPrometheusMetrics({ defaultMetrics: false });
  const handle = createAdminHandler({ readiness, metrics });
  return {
    readiness,
    metrics,
    get: (path: string, method = "GET") => handle(new Request(`http://127.0.0.1${path}`, { method })),
  };
}

describe("createAdminHandler()", () => {
  test("GET /healthz is 200 {status: ok} whatever the readiness", async () => {
    const { get } = admin();
    const response = await get("/healthz");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
  });

  test("GET /readyz follows readiness: 503 with the reason while starting and after a stop signal, 200 while serving", async () => {
    const { get, readiness } = admin();
    let response = await get("/readyz");
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ status: "not_ready", reason: "starting" });
    readiness.serving();
    response = await get("/readyz");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ready" });
    readiness.stopping();
    response = await get("/readyz");
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ reason: "shutting_down" });
  });

  test("GET /metrics is the text exposition with its content type, never cached", async () => {
    const { get, metrics } = admin();
    metrics.answerLookup("hit");
    const response = await get("/metrics");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.text()).toContain('vcs_cache_lookups_total{cache="answer",result="hit"} 1');
  });

  test("other paths are 404 and other methods 405, with a JSON error", async () => {
    const { get } = admin();
    expect((await get("/chat")).status).toBe(404);
    expect((await get("/metrics/x")).status).toBe(404);
    const post = await get("/metrics", "POST");
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
    expect(await post.json()).toMatchObject({ error: { code: "method_not_allowed" } });
  });
});
