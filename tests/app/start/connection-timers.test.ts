/** @module Tests of the connection timers: idle and header bounds, requests in the app, pipelining. */
import { describe, expect, test } from "bun:test";
import {
  type ConnectionTimeout,
  createConnectionTimers,
  type TimerClock,
} from "../../../src/app/start/connection-timers.ts";

/** A clock moved by hand: timers fire when `advance` passes their time. */
function manualClock() {
  let now = 0;
  let next = 0;
  const timers = new Map<number, { at: number; run: () => void }>();
  const clock: TimerClock = {
    set: (run, ms) => {
      timers.set(++next, { at: now + ms, run });
      return next;
    },
    clear: (handle) => void timers.delete(handle as number),
  };
  const advance = (ms: number): void => {
    now += ms;
    for (const [id, timer] of [...timers]) {
      if (timer.at > now) continue;
      timers.delete(id);
      timer.run();
    }
  };
  return { clock, advance, pending: () => timers.size };
}

function setUp() {
  const { clock, advance, pending } = manualClock();
  const closed: ConnectionTimeout[] = [];
  const timers = createConnectionTimers({ headersMs: 3_000, idleMs: 5_000, close: (why) => closed.push(why), clock });
  return { timers, advance, pending, closed };
}

describe("createConnectionTimers()", () => {
  test("a fresh connection that sends nothing is closed as idle", () => {
    const { advance, closed } = setUp();
    advance(4_999);
    expect(closed).toEqual([]);
    advance(1);
    expect(closed).toEqual(["idle"]);
  });

  test("headers trickling in are timed from their first byte, and more bytes do not extend it (slowloris)", () => {
    const { timers, advance, closed } = setUp();
    advance(4_000);
    timers.received();
    for (let i = 0; i < 5; i++) {
      advance(500);
      timers.received();
    }
    expect(closed).toEqual([]);
    advance(500);
    expect(closed).toEqual(["headers"]);
  });

  test("nothing is timed while a request is in the app, however long; after its answer the idle bound starts again", () => {
    const { timers, advance, closed, pending } = setUp();
    timers.received();
    timers.begin();
    expect(pending()).toBe(0);
    advance(600_000);
    timers.end();
    advance(4_999);
    expect(closed).toEqual([]);
    advance(1);
    expect(closed).toEqual(["idle"]);
  });

  test("pipelined requests: the idle bound waits for the last answer", () => {
    const { timers, advance, closed } = setUp();
    timers.received();
    timers.begin();
    timers.begin();
    timers.end();
    advance(10_000);
    expect(closed).toEqual([]);
    timers.end();
    advance(5_000);
    expect(closed).toEqual(["idle"]);
  });

  test("a disposed connection's timer never fires", () => {
    const { timers, advance, closed } = setUp();
    timers.dispose();
    advance(60_000);
    expect(closed).toEqual([]);
  });
});
