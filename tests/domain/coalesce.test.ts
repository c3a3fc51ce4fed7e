/** @module Tests of `Coalescer`, the local flight and `coalesceLocally()`. */
import { describe, expect, test } from "bun:test";
import { coalesceLocally, Coalescer, createLocalFlight } from "../../src/domain/coalesce.ts";
import { AppError, isAppError } from "../../src/domain/errors.ts";

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

describe("createLocalFlight()", () => {
  test("concurrent callers share one run: the first is the owner, the others local", async () => {
    const flight = createLocalFlight();
    let runs = 0;
    const work = async () => (runs++, await Bun.sleep(10), "v");
    const results = await Promise.all([flight.run("k", work), flight.run("k", work), flight.run("k", work)]);
    expect(runs).toBe(1);
    expect(results).toEqual([
      { value: "v", role: "owner" },
      { value: "v", role: "local" },
      { value: "v", role: "local" },
    ]);
  });

  test("a caller whose signal aborts stops waiting with upstream_timeout (or the signal's own AppError); the others still get the value", async () => {
    const flight = createLocalFlight();
    let runs = 0;
    const work = async () => (runs++, await Bun.sleep(60), "v");
    const patient = flight.run("k", work);
    const impatient = flight.run("k", work, { signal: AbortSignal.timeout(10) });
    const named = new AbortController();
    const own = flight.run("k", work, { signal: named.signal }).catch((e) => e.message);
    named.abort(new AppError("upstream_timeout", "mine"));
    expect(await impatient.catch((e) => isAppError(e, "upstream_timeout"))).toBe(true);
    expect(await own).toBe("mine");
    expect((await patient).value).toBe("v");
    expect(runs).toBe(1);
  });
});

describe("coalesceLocally()", () => {
  test("tells the participation whether anyone here still waits; once none does, the work's signal aborts and the next caller starts afresh", async () => {
    const wants: boolean[][] = [];
    const signals: AbortSignal[] = [];
    const flight = coalesceLocally(async (_key, work, wanted) => {
      const seen: boolean[] = [];
      wants.push(seen);
      for (let i = 0; i < 3; i++, await Bun.sleep(40)) seen.push(wanted());
      return { value: await work(), role: "remote" };
    });
    const work = (value: number) => async (signal: AbortSignal) => (signals.push(signal), value);
    const impatient = flight.run("k", work(1), { signal: AbortSignal.timeout(10) }).catch((e) => e.code);
    await Bun.sleep(60);
    const next = flight.run("k", work(2));
    expect(await impatient).toBe("upstream_timeout");
    expect(await next).toEqual({ value: 2, role: "remote" });
    expect(wants).toEqual([[true, false, false], [true, true, true]]);
    expect(signals.map((signal) => signal.aborted)).toEqual([true, false]);
  });

  test("a caller joining work others wait for shares it; the work stops only when the last one leaves", async () => {
    let stopped: unknown;
    const flight = createLocalFlight();
    const work = (signal: AbortSignal) =>
      new Promise<number>((_, reject) => signal.addEventListener("abort", () => reject(stopped = signal.reason)));
    const [first, second] = [new AbortController(), new AbortController()];
    const a = flight.run("k", work, { signal: first.signal }).catch((e) => e.code);
    const b = flight.run("k", work, { signal: second.signal }).catch((e) => e.code);
    first.abort();
    expect(await a).toBe("upstream_timeout");
    await Bun.sleep(5);
    expect(stopped).toBeUndefined();
    second.abort();
    expect(await b).toBe("upstream_timeout");
    expect(stopped).toMatchObject({ code: "upstream_timeout" });
  });

  test("a caller joining work done on another instance is told `remote`, not `local`", async () => {
    const flight = coalesceLocally(async (_key, work) => ({ value: await work(), role: "remote" }));
    const work = async () => (await Bun.sleep(5), "v");
    const roles = (await Promise.all([flight.run("k", work), flight.run("k", work)])).map((r) => r.role);
    expect(roles).toEqual(["remote", "remote"]);
  });
});
