/** @module Tests of `streamChat()`: event order, keep-alives, slow readers, aborts and mismatched deltas. */
import { describe, expect, test } from "bun:test";
import { streamChat } from "../../../src/app/stream/chat-stream.ts";
import { createLiveStreams } from "../../../src/app/stream/live-streams.ts";
import type { ChatResponse } from "../../../src/domain/chat.ts";
import type { AnswerListener } from "../../../src/domain/generation.ts";
import { AppError } from "../../../src/domain/errors.ts";

const BODY: ChatResponse = {
  url: "u",
  model: "chat-1.0",
  prompt: "summary",
  language: "en",
  output_format: "text",
  output: "Hello, world.",
  video_duration: "5 minutes",
};
const errorBody = (error: unknown) => ({
  error: { code: error instanceof AppError ? error.code : "internal_error", message: "m", request_id: "r" },
});

/** A stream whose work is driven by the test through `listener` and `settle`. */
function open(keepAliveMs = 10_000) {
  let listener!: AnswerListener;
  let settle!: { resolve: (body: ChatResponse) => void; reject: (error: unknown) => void };
  let gone!: AbortSignal;
  const live = createLiveStreams();
  const response = streamChat({
    headers: { "x-request-id": "r" },
    keepAliveMs,
    live,
    errorBody,
    run: (l, signal) => {
      listener = l;
      gone = signal;
      return new Promise((resolve, reject) => (settle = { resolve, reject }));
    },
  });
  return {
    response,
    live,
    emit: (e: Parameters<AnswerListener>[0]) => listener(e),
    settle: () => settle,
    gone: () => gone,
  };
}

describe("streamChat()", () => {
  test("a failure before the first event is thrown (answered as JSON), not streamed", async () => {
    const s = open();
    await Bun.sleep(0);
    s.settle().reject(new AppError("overloaded", "busy"));
    expect(await s.response.catch((e) => e.code)).toBe("overloaded");
  });

  test("a stream refused before it opened leaves no keep-alive timer running", async () => {
    const timers = new Set<unknown>();
    const realSet = globalThis.setTimeout;
    const realClear = globalThis.clearTimeout;
    globalThis.setTimeout = ((run: () => void, ms?: number) => {
      const handle = realSet(() => (timers.delete(handle), run()), ms);
      timers.add(handle);
      return handle;
    }) as typeof setTimeout;
    globalThis.clearTimeout =
      ((handle: ReturnType<typeof setTimeout>) => (timers.delete(handle), realClear(handle))) as typeof clearTimeout;
    try {
      const s = open(20);
      await Bun.sleep(0);
      s.settle().reject(new AppError("overloaded", "busy"));
      await s.response.catch(() => {});
      await Bun.sleep(60);
      expect(timers.size).toBe(0);
    } finally {
      globalThis.setTimeout = realSet;
      globalThis.clearTimeout = realClear;
    }
  });

  test("events go out in order; done is preceded by what the deltas lacked of the output", async () => {
    const s = open();
    await Bun.sleep(0);
    s.emit({ type: "progress", progress: { stage: "transcript" } });
    const response = await s.response;
    expect(response.headers.get("content-type")).toStartWith("text/event-stream");
    s.emit({ type: "delta", text: "Hello, " });
    s.settle().resolve(BODY);
    const text = await response.text();
    expect(text).toBe(
      'event: progress\ndata: {"stage":"transcript"}\n\n' + 'event: delta\ndata: {"text":"Hello, "}\n\n' +
        'event: delta\ndata: {"text":"world."}\n\n' + `event: done\ndata: ${JSON.stringify(BODY)}\n\n`,
    );
    expect(s.live.count).toBe(0);
  });

  test("deltas the output does not continue (a dead owner's part, then another answer) end the stream with upstream_error, never a done that contradicts them", async () => {
    const s = open();
    await Bun.sleep(0);
    s.emit({ type: "delta", text: "Goodbye" });
    const response = await s.response;
    s.settle().resolve(BODY);
    const text = await response.text();
    expect(text).toBe(
      'event: delta\ndata: {"text":"Goodbye"}\n\n' +
        'event: error\ndata: {"error":{"code":"upstream_error","message":"m","request_id":"r"}}\n\n',
    );
  });

  test("a reader that does not read gets no pile of keep-alives: one is queued at most behind unsent data", async () => {
    const s = open(5);
    await Bun.sleep(0);
    s.emit({ type: "progress", progress: { stage: "transcript" } });
    const response = await s.response;
    await Bun.sleep(200); // forty keep-alive periods without reading
    s.settle().resolve(BODY);
    const text = await response.text();
    expect(text.split(": keep-alive").length - 1).toBeLessThanOrEqual(1);
  });

  test("a silent stream gets keep-alive comments", async () => {
    const s = open(20);
    await Bun.sleep(0);
    s.emit({ type: "progress", progress: { stage: "transcript" } });
    const reader = (await s.response).body!.getReader();
    let text = "";
    const started = Date.now();
    while (Date.now() - started < 150) text += new TextDecoder().decode((await reader.read()).value);
    expect(text.split(": keep-alive").length - 1).toBeGreaterThanOrEqual(3);
    await reader.cancel();
  });

  test("a reader that goes away aborts the work's signal; shutdown's interrupt ends a stream with an error event", async () => {
    const a = open();
    await Bun.sleep(0);
    a.emit({ type: "progress", progress: { stage: "transcript" } });
    await (await a.response).body!.cancel();
    expect(a.gone().aborted).toBe(true);
    const b = open();
    await Bun.sleep(0);
    b.emit({ type: "progress", progress: { stage: "transcript" } });
    const response = await b.response;
    b.live.interrupt(new AppError("overloaded", "stopping"));
    expect(await response.text()).toEndWith(
      'event: error\ndata: {"error":{"code":"overloaded","message":"m","request_id":"r"}}\n\n',
    );
  });
});
