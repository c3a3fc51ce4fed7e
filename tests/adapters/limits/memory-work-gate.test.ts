/** @module Tests of the in-memory work gate: its bound, `overloaded` refusals and freed places. */
import { describe, expect, test } from "bun:test";
import { createMemoryWorkGate } from "../../../src/adapters/limits/memory-work-gate.ts";
import { AppError } from "../../../src/domain/errors.ts";

describe("createMemoryWorkGate()", () => {
  test("runs up to maxInFlight works and refuses the next at once with overloaded and a retry hint", async () => {
    const gate = createMemoryWorkGate({ maxInFlight: 2, retryAfterSeconds: 3 });
    const releases: (() => void)[] = [];
    const blocked = () => new Promise<string>((resolve) => releases.push(() => resolve("done")));
    const first = gate.run(blocked);
    const second = gate.run(blocked);
    expect(gate.inFlight).toBe(2);
    let ran = false;
    const started = performance.now();
    const refused = await gate.run(async () => (ran = true)).catch((error: unknown) => error);
    expect(performance.now() - started).toBeLessThan(50);
    expect(ran).toBe(false);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe("overloaded");
    expect((refused as AppError).retryAfterSeconds).toBe(3);
    for (const release of releases) release();
    expect(await Promise.all([first, second])).toEqual(["done", "done"]);
    expect(gate.inFlight).toBe(0);
  });

  test("a failed work frees its place", async () => {
    const gate = createMemoryWorkGate({ maxInFlight: 1 });
    await gate.run(async () => {
      throw new Error("boom");
    }).catch(() => {});
    expect(gate.inFlight).toBe(0);
    expect(await gate.run(async () => 42)).toBe(42);
  });

  test("one holder runs at most its share; past it that holder alone is refused, and others still get places", async () => {
    const gate = createMemoryWorkGate({ maxInFlight: 4, maxPerHolder: 2 });
    const releases: (() => void)[] = [];
    const blocked = () => new Promise<string>((resolve) => releases.push(() => resolve("done")));
    const mine = [gate.run(blocked, "key-a"), gate.run(blocked, "key-a")];
    const refused = await gate.run(async () => "ran", "key-a").catch((error: unknown) => error);
    expect((refused as AppError).code).toBe("overloaded");
    expect((refused as AppError).message).toContain("This API key already has 2 requests at work");
    const theirs = [gate.run(blocked, "key-b"), gate.run(blocked)];
    expect(gate.inFlight).toBe(4);
    for (const release of releases) release();
    expect(await Promise.all([...mine, ...theirs])).toEqual(["done", "done", "done", "done"]);
    expect(await gate.run(async () => "again", "key-a")).toBe("again");
  });

  test("a holder's place is freed when its work fails", async () => {
    const gate = createMemoryWorkGate({ maxInFlight: 4, maxPerHolder: 1 });
    await gate.run(async () => {
      throw new Error("boom");
    }, "key-a").catch(() => {});
    expect(await gate.run(async () => 42, "key-a")).toBe(42);
  });
});
