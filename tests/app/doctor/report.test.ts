/** @module Tests of the doctor's report: checks run in order, a table per check, the JSON document, the verdict. */
import { describe, expect, test } from "bun:test";
import { type CheckResult, renderJson, renderText, runChecks } from "../../../src/app/doctor/report.ts";

const result = (name: string, ok: boolean): CheckResult => ({
  name,
  title: `Check ${name}`,
  columns: [{ key: "a", label: "A" }, { key: "long", label: "LONGER" }],
  rows: [{ a: "x", long: 1 }, { a: "yyyy", long: null }],
  ok,
  summary: ok ? "fine" : "broken",
  advice: ok ? [] : ["change this"],
});

describe("the doctor's report", () => {
  test("runs every check in order; it is ok only when every check is", async () => {
    const order: string[] = [];
    const check = (name: string, ok: boolean) => ({
      name,
      run: async () => (order.push(name), result(name, ok)),
    });
    const good = await runChecks([check("youtube", true), check("llm", true)]);
    expect([good.ok, order]).toEqual([true, ["youtube", "llm"]]);
    const bad = await runChecks([check("youtube", true), check("llm", false)]);
    expect(bad.ok).toBe(false);
  });

  test("prints each check as a title, an aligned table (- for nothing), its verdict and advice", async () => {
    const report = await runChecks([{ name: "a", run: async () => result("a", false) }]);
    expect(renderText(report)).toEqual([
      "Check a",
      "",
      "A     LONGER",
      "x     1",
      "yyyy  -",
      "",
      "FAIL: broken",
      "  - change this",
    ]);
  });

  test("JSON: the verdict, and per check its rows, summary and advice (the columns are the table's only)", async () => {
    const report = await runChecks([{ name: "a", run: async () => result("a", true) }]);
    expect(JSON.parse(renderJson(report))).toEqual({
      ok: true,
      checks: [{
        name: "a",
        title: "Check a",
        rows: [{ a: "x", long: 1 }, { a: "yyyy", long: null }],
        ok: true,
        summary: "fine",
        advice: [],
      }],
    });
  });
});
