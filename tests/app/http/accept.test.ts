/** @module Tests of `wantsStream()`: which `Accept` headers ask for a streamed answer. */
import { describe, expect, test } from "bun:test";
import { wantsStream } from "../../../src/app/http/accept.ts";

const asking = (accept?: string) =>
  wantsStream(
    new Request("http://127.0.0.1/chat", { method: "POST", headers: accept === undefined ? {} : { accept } }),
  );

describe("wantsStream()", () => {
  test("a stream is asked by naming text/event-stream, in any case and with parameters", () => {
    expect(
      [
        "text/event-stream",
        "TEXT/Event-Stream",
        "text/event-stream; charset=utf-8",
        "application/json;q=0.5, text/event-stream",
        "text/event-stream, application/json",
      ].map(asking),
    ).toEqual([true, true, true, true, true]);
  });

  test("no Accept, a wildcard, JSON, a refused stream (q=0) or a preferred JSON keep the JSON answer", () => {
    expect(
      [
        undefined,
        "*/*",
        "application/json",
        "text/event-stream;q=0",
        "text/event-stream;q=0.2, application/json",
        "text/event-streams",
      ].map(asking),
    ).toEqual([false, false, false, false, false, false]);
  });
});
