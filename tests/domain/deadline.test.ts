/** @module Tests of the race of work against an abort signal. */
import { describe, expect, test } from "bun:test";
import { raceAbort } from "../../src/domain/deadline.ts";

describe("raceAbort()", () => {
  test("a signal already aborted stops the wait, and the work's later failure is no unhandled rejection", async () => {
    const controller = new AbortController();
    controller.abort();
    let fail!: (error: unknown) => void;
    const work = new Promise<never>((_, reject) => (fail = reject));
    const unhandled: unknown[] = [];
    const onUnhandled = (error: unknown) => void unhandled.push(error);
    process.on("unhandledRejection", onUnhandled);
    try {
      await expect(raceAbort(work, controller.signal, () => new Error("stopped"))).rejects.toThrow("stopped");
      fail(new Error("the work failed after the wait ended"));
      await Bun.sleep(10);
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });
});
