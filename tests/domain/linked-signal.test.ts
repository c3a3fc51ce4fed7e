/** @module Tests of linked-signal.ts: sources and a time limit linked, and nothing held after dispose. */
import { describe, expect, test } from "bun:test";
import { linkSignals } from "../../src/domain/linked-signal.ts";

describe("linkSignals", () => {
  test("aborts with a source's reason when a source aborts", () => {
    const source = new AbortController();
    const linked = linkSignals([undefined, source.signal]);
    source.abort("gone");
    expect(linked.signal.aborted).toBe(true);
    expect(linked.signal.reason).toBe("gone");
    expect(linked.timedOut).toBe(false);
  });

  test("starts aborted when a source already is", () => {
    const source = new AbortController();
    source.abort("early");
    expect(linkSignals([source.signal], { ms: 10 }).signal.reason).toBe("early");
  });

  test("aborts at its time limit with a TimeoutError, or the reason given", async () => {
    const plain = linkSignals([], { ms: 5 });
    const named = linkSignals([], { ms: 5, reason: () => "too slow" });
    await Bun.sleep(30);
    expect((plain.signal.reason as DOMException).name).toBe("TimeoutError");
    expect(plain.timedOut).toBe(true);
    expect(named.signal.reason).toBe("too slow");
  });

  test("after dispose, neither the timer nor a source aborts it: nothing stays linked", async () => {
    const source = new AbortController();
    const linked = linkSignals([source.signal], { ms: 5 });
    linked.dispose();
    await Bun.sleep(30);
    source.abort("late");
    expect(linked.signal.aborted).toBe(false);
  });
});
