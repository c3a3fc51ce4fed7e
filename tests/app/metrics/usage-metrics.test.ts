/** @module Tests of usage-metrics.ts: answered requests and charged video length, by cache result, no key label. */
import { describe, expect, test } from "bun:test";
import { Registry } from "prom-client";
import { createUsageMetrics } from "../../../src/app/metrics/usage-metrics.ts";

describe("createUsageMetrics", () => {
  test("counts answers and their charged minutes (as seconds) by cache result, each series at 0 from the start", async () => {
    const registry = new Registry();
    const observe = createUsageMetrics(registry);
    expect(await registry.metrics()).toMatch(/^vcs_usage_answered_requests_total\{cache="shared"\} 0$/m);
    observe.answered(5, "miss");
    observe.answered(5, "hit");
    observe.answered(1, "hit");
    const text = await registry.metrics();
    expect(text).toMatch(/^vcs_usage_answered_requests_total\{cache="hit"\} 2$/m);
    expect(text).toMatch(/^vcs_usage_answered_requests_total\{cache="miss"\} 1$/m);
    expect(text).toMatch(/^vcs_usage_video_seconds_total\{cache="hit"\} 360$/m);
    expect(text).toMatch(/^vcs_usage_video_seconds_total\{cache="miss"\} 300$/m);
    // No key label: the only label is the cache result.
    expect(text.match(/\{[^}]*\}/g)?.every((labels) => /^\{cache="(hit|miss|shared)"\}$/.test(labels))).toBe(true);
  });
});
