/** @module Tests of the quota parser: units, periods, several at once, `none`, and refusals that name the value. */
import { describe, expect, test } from "bun:test";
import { formatQuota, parseQuota, parseQuotaSetting, quotasOf } from "../../../src/app/config/quota-spec.ts";

describe("parseQuota()", () => {
  test("reads a limit, a unit (min, req) and a UTC period (day, month), spaces and case tolerated", () => {
    expect(parseQuota("600min/month")).toEqual({ limit: 600, unit: "min", period: "month" });
    expect(parseQuota(" 3 REQ / Day ")).toEqual({ limit: 3, unit: "req", period: "day" });
  });

  test("refuses other units and periods, zero, fractions and missing parts", () => {
    for (const text of ["600", "600min", "600min/week", "10h/day", "0min/day", "1.5min/day", "-1req/day", "min/day"]) {
      expect(parseQuota(text)).toBeUndefined();
    }
  });

  test("writes a quota back as it is read", () => {
    expect(formatQuota({ limit: 60, unit: "min", period: "day" })).toBe("60min/day");
  });
});

describe("parseQuotaSetting()", () => {
  test("takes several, repeated or comma-separated, and stores them in one normal form", () => {
    expect(parseQuotaSetting(["60min/day", "1000MIN/month"])).toEqual({
      quotas: [{ limit: 60, unit: "min", period: "day" }, { limit: 1000, unit: "min", period: "month" }],
      text: "60min/day,1000min/month",
    });
    expect(parseQuotaSetting(["60min/day, 3req/day"])).toMatchObject({ text: "60min/day,3req/day" });
  });

  test("`none` alone means no quota at all", () => {
    expect(parseQuotaSetting(["none"])).toEqual({ quotas: [], text: "none" });
    expect(parseQuotaSetting(["none", "60min/day"])).toEqual({
      problem: 'none cannot be combined with other quotas: current value is ["none","60min/day"]',
    });
  });

  test("a bad or repeated quota is a problem naming it", () => {
    expect(parseQuotaSetting(["60min/day", "lots"])).toEqual({
      problem:
        'a quota must look such as 600min/month, 60min/day or 1000req/day (units min, req; periods day, month): current value is "lots"',
    });
    expect(parseQuotaSetting(["60min/day", "90min/day"])).toMatchObject({
      problem: expect.stringContaining("only one min/day quota"),
    });
    expect(parseQuotaSetting([" "])).toMatchObject({ problem: expect.stringContaining("a quota is needed") });
  });
});

describe("quotasOf()", () => {
  const fallback = [{ limit: 5, unit: "req", period: "day" }] as const;
  test("a key's own setting wins, `none` gives no quota, and no setting gives the default", () => {
    expect(quotasOf("10min/day", fallback)).toEqual([{ limit: 10, unit: "min", period: "day" }]);
    expect(quotasOf("none", fallback)).toEqual([]);
    expect(quotasOf(undefined, fallback)).toBe(fallback);
    expect(quotasOf("garbled", fallback)).toBeUndefined();
  });
});
