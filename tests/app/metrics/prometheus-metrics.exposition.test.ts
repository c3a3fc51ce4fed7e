/** @module Tests that the `/metrics` exposition passes `promtool check metrics`. */
import { describe, expect, test } from "bun:test";
import { createPrometheusMetrics } from "../../../src/app/metrics/prometheus-metrics.ts";
import { promtoolProblems } from "../../support/promtool.ts";

/** Metrics with every series given a value, so promtool sees each metric's full shape. */
async function fullExposition(): Promise<string> {
  const metrics = createPrometheusMetrics();
  metrics.request(200, { cache: "hit" }, 0.3);
  metrics.request(422, { errorCode: "video_unavailable" }, 80);
  metrics.youtube("watch_page", "blocked", 0.2);
  metrics.llm("ok", 1.2, { input: 900, output: 60 });
  metrics.llmBudget.remaining(1000);
  metrics.llmBudget.queued(0);
  metrics.llmBudget.waited(0.5);
  metrics.transcriptLookup("miss");
  metrics.watchInFlight(() => 2);
  metrics.redisAvailability(true);
  return await metrics.render();
}

describe("the /metrics exposition", () => {
  test("passes `promtool check metrics` (Prometheus's own parser and linter)", async () => {
    expect(promtoolProblems(await fullExposition())).toEqual([]);
  });

  test("the promtool check fails on a broken exposition and on a badly named metric (it can fail)", () => {
    expect(promtoolProblems("vcs_broken{ 1\n").join("\n")).toContain("exited 1");
    const counterWithoutTotal = "# HELP vcs_things Things.\n# TYPE vcs_things counter\nvcs_things 1\n";
    expect(promtoolProblems(counterWithoutTotal).join("\n")).toContain("vcs_things");
  });
});
