/** @module Tests of a shared generation: replay, relayed events, dead owners and cancellation. */
import { describe, expect, test } from "bun:test";
import { Generation, Generations } from "../../src/domain/generation.ts";
import type { FlightEvent } from "../../src/domain/ports.ts";

describe("Generation", () => {
  test("a caller joining late replays every event so far, then follows", () => {
    const generation = new Generation();
    const early: FlightEvent[] = [];
    const late: FlightEvent[] = [];
    generation.join((e) => early.push(e));
    generation.events.progress({ stage: "writing" });
    generation.events.delta("Hello, ");
    generation.join((e) => late.push(e));
    generation.events.delta("world.");
    expect(late).toEqual(early);
    expect(generation.streamed()).toBe("Hello, world.");
  });

  test("publishers get this process's own events from when they start, in order; events relayed from elsewhere are not published", () => {
    const generation = new Generation();
    const heard: FlightEvent[] = [];
    const published: FlightEvent[] = [];
    generation.join((e) => heard.push(e));
    generation.events.progress({ stage: "transcript" });
    const stop = generation.relay.publish((e) => published.push(e));
    generation.relay.listen!({ type: "progress", progress: { stage: "writing" } });
    generation.events.delta("Hello");
    stop();
    generation.events.delta(", world.");
    expect(published).toEqual([{ type: "delta", text: "Hello" }]);
    expect(heard.map((e) => e.type)).toEqual(["progress", "progress", "delta", "delta"]);
  });

  test("events relayed from another instance reach the callers like the work's own, late joiners included", () => {
    const generation = new Generation();
    const early: FlightEvent[] = [];
    generation.join((e) => early.push(e));
    generation.relay.listen!({ type: "progress", progress: { stage: "writing" } });
    generation.relay.listen!({ type: "delta", text: "Remote " });
    const late: FlightEvent[] = [];
    generation.join((e) => late.push(e));
    generation.relay.listen!({ type: "delta", text: "text." });
    expect(late).toEqual(early);
    expect(early).toEqual([{ type: "progress", progress: { stage: "writing" } }, { type: "delta", text: "Remote " }, {
      type: "delta",
      text: "text.",
    }]);
    expect(generation.streamed()).toBe("");
  });

  test("after deltas relayed from an owner that died, the work run here sends its callers progress but no deltas; it still publishes all of them", () => {
    const generation = new Generation();
    const heard: FlightEvent[] = [];
    const published: FlightEvent[] = [];
    generation.join((e) => heard.push(e));
    generation.relay.listen!({ type: "delta", text: "The dead owner's" });
    generation.relay.publish((e) => published.push(e));
    generation.events.progress({ stage: "writing" });
    generation.events.delta("A new answer.");
    expect(heard).toEqual([{ type: "delta", text: "The dead owner's" }, {
      type: "progress",
      progress: { stage: "writing" },
    }]);
    expect(published).toEqual([{ type: "progress", progress: { stage: "writing" } }, {
      type: "delta",
      text: "A new answer.",
    }]);
    expect(generation.streamed()).toBe("A new answer.");
  });

  test("the work is cancelled when the last caller leaves before it settles, not before", () => {
    const generation = new Generation();
    const leaveA = generation.join();
    const leaveB = generation.join();
    leaveA();
    leaveA();
    expect(generation.signal.aborted).toBe(false);
    leaveB();
    expect(generation.signal.aborted).toBe(true);
  });

  test("leaving a settled generation cancels nothing", () => {
    const generation = new Generation();
    const leave = generation.join();
    generation.settle();
    leave();
    expect(generation.signal.aborted).toBe(false);
  });

  test("Generations gives callers of one key the same generation until it settles, then a fresh one", () => {
    const generations = new Generations();
    const first = generations.enter("k");
    expect(generations.enter("k")).toBe(first);
    first.settle();
    expect(generations.enter("k")).not.toBe(first);
  });
});
