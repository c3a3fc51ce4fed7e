import { describe, expect, test } from "bun:test";
import { Coalescer } from "../../src/domain/coalesce.ts";

describe("Coalescer", () => {
  test("runs concurrent calls with one key once and shares the value", async () => {
    const coalescer = new Coalescer<number>();
    let runs = 0;
    const work = async () => {
      runs++;
      await Bun.sleep(10);
      return 42;
    };
    const results = await Promise.all([coalescer.run("k", work), coalescer.run("k", work), coalescer.run("k", work)]);
    expect(runs).toBe(1);
    expect(results.map((r) => r.value)).toEqual([42, 42, 42]);
    expect(results.map((r) => r.shared)).toEqual([false, true, true]);
    expect(coalescer.size).toBe(0);
  });

  test("shares a failure, then starts afresh", async () => {
    const coalescer = new Coalescer<number>();
    const failing = async () => {
      await Bun.sleep(5);
      throw new Error("boom");
    };
    const settled = await Promise.allSettled([coalescer.run("k", failing), coalescer.run("k", failing)]);
    expect(settled.every((s) => s.status === "rejected")).toBe(true);
    expect((await coalescer.run("k", async () => 7)).value).toBe(7);
  });

  test("runs different keys separately", async () => {
    const coalescer = new Coalescer<string>();
    const [a, b] = await Promise.all([coalescer.run("a", async () => "A"), coalescer.run("b", async () => "B")]);
    expect([a.value, b.value, a.shared, b.shared]).toEqual(["A", "B", false, false]);
  });
});
