import { describe, expect, test } from "bun:test";
import { Generation, Generations } from "../../src/domain/generation.ts";
import type { AnswerEvent } from "../../src/domain/ports.ts";

describe("Generation", () => {
  test("a caller joining late replays every event so far, then follows", () => {
    const generation = new Generation();
    const early: AnswerEvent[] = [];
    const late: AnswerEvent[] = [];
    generation.join((e) => early.push(e));
    generation.events.progress({ stage: "writing" });
    generation.events.delta("Hello, ");
    generation.join((e) => late.push(e));
    generation.events.delta("world.");
    expect(late).toEqual(early);
    expect(generation.streamed()).toBe("Hello, world.");
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
