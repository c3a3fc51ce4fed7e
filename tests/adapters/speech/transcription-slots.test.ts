/** @module Tests of transcription-slots.ts: at most N videos at once, the rest waiting to their deadline. */
import { describe, expect, test } from "bun:test";
import { createTranscriptionSlots } from "../../../src/adapters/speech/transcription-slots.ts";
import { isAppError } from "../../../src/domain/errors.ts";

describe("createTranscriptionSlots", () => {
  test("gives places at once up to its size, then in arrival order as places are given back", async () => {
    const slots = createTranscriptionSlots(2);
    const deadline = Date.now() + 5_000;
    const first = await slots.take(deadline);
    const second = await slots.take(deadline);
    const order: string[] = [];
    const third = slots.take(deadline).then((release) => (order.push("third"), release));
    const fourth = slots.take(deadline).then((release) => (order.push("fourth"), release));
    await Bun.sleep(20);
    expect(order).toEqual([]);
    first();
    first(); // a second call gives nothing back twice
    (await third)();
    second();
    (await fourth)();
    expect(order).toEqual(["third", "fourth"]);
    // Every place is free again.
    const all = [await slots.take(deadline), await slots.take(deadline)];
    all.forEach((release) => release());
  });

  test("a wait that outlasts its deadline is 503 overloaded with a retry-after, and leaves the line", async () => {
    const slots = createTranscriptionSlots(1);
    const held = await slots.take(Date.now() + 5_000);
    const error = await slots.take(Date.now() + 30).then(() => undefined, (e) => e);
    expect(isAppError(error, "overloaded")).toBe(true);
    expect(error.retryAfterSeconds).toBe(30);
    held();
    const next = await slots.take(Date.now() + 1_000);
    next();
  });

  test("a caller that gives up leaves the line", async () => {
    const slots = createTranscriptionSlots(1);
    const held = await slots.take(Date.now() + 5_000);
    const controller = new AbortController();
    const waiting = slots.take(Date.now() + 5_000, controller.signal).then(() => undefined, (e) => e);
    controller.abort();
    expect(isAppError(await waiting, "upstream_timeout")).toBe(true);
    held();
    (await slots.take(Date.now() + 100))();
  });
});
