/** @module Tests of `batchedCounter()`: children start at 0 and hand their counts over at each scrape. */
import { describe, expect, test } from "bun:test";
import { Registry } from "prom-client";
import { batchedCounter } from "../../../src/app/metrics/label-children.ts";
import { parseSamples } from "../../support/prometheus-text.ts";

describe("batchedCounter()", () => {
  test("children start at 0, and counts added between scrapes are handed over at each scrape, cumulatively", async () => {
    const registry = new Registry();
    const counter = batchedCounter({
      name: "vcs_test_things_total",
      help: "Things.",
      labelNames: ["kind"],
      registers: [registry],
    });
    const red = counter.child("red");
    counter.child("blue");
    const scrape = async () => parseSamples(await registry.metrics());
    expect(Object.fromEntries(await scrape())).toEqual({
      'vcs_test_things_total{kind="red"}': 0,
      'vcs_test_things_total{kind="blue"}': 0,
    });
    red.inc();
    red.inc(2);
    expect((await scrape()).get('vcs_test_things_total{kind="red"}')).toBe(3);
    red.inc(2);
    expect((await scrape()).get('vcs_test_things_total{kind="red"}')).toBe(5);
    expect((await scrape()).get('vcs_test_things_total{kind="red"}')).toBe(5);
  });
});
