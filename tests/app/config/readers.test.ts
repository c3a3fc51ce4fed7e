/** @module Tests of the environment reader: named ranges and URL options, every problem collected. */
import { describe, expect, test } from "bun:test";
import { EnvReader, PORTS } from "../../../src/app/config/readers.ts";

describe("EnvReader", () => {
  test("int() keeps a value inside its range and names the range of one outside it, falling back", () => {
    const read = new EnvReader({ A: "7", B: "70000", C: "1.5" });
    expect(read.int("A", 1, { min: 0, max: 10 })).toBe(7);
    expect(read.int("B", 3000, PORTS)).toBe(3000);
    expect(read.int("C", 2, { min: 0, max: 10 })).toBe(2);
    expect(read.int("UNSET", 5, { min: 0, max: 10 })).toBe(5);
    expect(read.problems).toEqual([
      'B must be a whole number from 0 to 65535: current value is "70000"',
      'C must be a whole number from 0 to 10: current value is "1.5"',
    ]);
  });

  test("optionalInt() is undefined when unset, and checks the range when set", () => {
    const read = new EnvReader({ SET: "2048", LOW: "12" });
    expect(read.optionalInt("UNSET", { min: 1_024, max: 4_096 })).toBeUndefined();
    expect(read.optionalInt("SET", { min: 1_024, max: 4_096 })).toBe(2048);
    read.optionalInt("LOW", { min: 1_024, max: 4_096 });
    expect(read.problems).toEqual(['LOW must be a whole number from 1024 to 4096: current value is "12"']);
  });

  test("url() drops trailing slashes, or keeps the origin only when asked", () => {
    const read = new EnvReader({ BASE: "https://example.test/v1//", ORIGIN: "https://example.test:8443/path?q=1" });
    expect(read.url("BASE", "https://fallback.test")).toBe("https://example.test/v1");
    expect(read.url("ORIGIN", "https://fallback.test", { origin: true })).toBe("https://example.test:8443");
    expect(read.url("UNSET", "https://fallback.test")).toBe("https://fallback.test");
    expect(read.problems).toEqual([]);
  });

  test("a secret URL's problem names the setting, never its value; another's quotes it", () => {
    const read = new EnvReader({ PROXY: "ftp://user:hunter2@proxy.test", OTHER: "not a url" });
    expect(read.optionalUrl("PROXY", { secret: true })).toBeUndefined();
    expect(read.url("OTHER", "https://fallback.test")).toBe("https://fallback.test");
    expect(read.problems).toEqual([
      "PROXY must be an http or https URL: its value is not shown, as it may hold credentials",
      'OTHER must be an http or https URL: current value is "not a url"',
    ]);
    expect(read.problems.join(" ")).not.toContain("hunter2");
  });
});
