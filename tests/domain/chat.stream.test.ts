/** @module Tests of the chat use case with a listener: progress, deltas, late joiners and cancellation. */
import { describe, expect, test } from "bun:test";
import { createChatService } from "../../src/domain/chat.ts";
import { createChatRequest } from "../../src/domain/chat-request.ts";
import type { AnswerEvent, AnswerSpec, AnswerWriter } from "../../src/domain/ports.ts";
import { FakeTranscripts, noCache, openGate } from "../support/fake/ports.ts";

const request = (prompt: string) => createChatRequest({ url: "https://youtu.be/GJLlxj_dtq8", prompt });

/** A writer that streams "one two three" word by word, `pauseMs` apart, and notes how its signal ended. */
class StreamingWriter implements AnswerWriter {
  readonly name = "streaming-fake";
  specs: AnswerSpec[] = [];
  aborted = false;
  constructor(private readonly pauseMs = 20) {}

  async write(spec: AnswerSpec) {
    this.specs.push(spec);
    spec.signal?.addEventListener("abort", () => (this.aborted = true));
    let text = "";
    for (const word of ["one", " two", " three"]) {
      await new Promise((resolve) => setTimeout(resolve, this.pauseMs));
      if (spec.signal?.aborted) throw spec.signal.reason;
      spec.events?.delta(word);
      text += word;
    }
    return { text };
  }
}

const service = (writer: AnswerWriter) =>
  createChatService({
    transcripts: new FakeTranscripts(),
    writer,
    answers: noCache,
    answerTtlMs: 0,
    gate: openGate,
    requestTimeoutMs: 5_000,
  });

describe("ChatService.answer() with a listener", () => {
  test("a listener gets progress, then the deltas; the writer is asked to stream only for a listening caller", async () => {
    const writer = new StreamingWriter();
    const events: AnswerEvent[] = [];
    const outcome = await service(writer).answer(request("q"), { listener: (e) => events.push(e) });
    expect(events[0]).toEqual({ type: "progress", progress: { stage: "transcript" } });
    expect(events.filter((e) => e.type === "delta").map((e) => (e as { text: string }).text)).toEqual([
      "one",
      " two",
      " three",
    ]);
    expect(outcome.response.output).toBe("one two three");
    await service(writer).answer(request("q2"));
    expect(writer.specs[1]!.events).toBeUndefined();
  });

  test("a listener joining late replays the deltas from the start", async () => {
    const writer = new StreamingWriter();
    const chat = service(writer);
    const early: string[] = [];
    const late: string[] = [];
    const first = chat.answer(request("same"), { listener: (e) => e.type === "delta" && early.push(e.text) });
    await new Promise((resolve) => setTimeout(resolve, 50)); // after "one"
    const second = chat.answer(request("same"), { listener: (e) => e.type === "delta" && late.push(e.text) });
    await Promise.all([first, second]);
    expect(late).toEqual(["one", " two", " three"]);
    expect(late).toEqual(early);
    expect(writer.specs).toHaveLength(1);
  });

  test("a non-streaming writer's answer reaches a listener as one delta", async () => {
    const writer: AnswerWriter = { name: "whole", write: async () => ({ text: "all at once" }) };
    const deltas: string[] = [];
    await service(writer).answer(request("whole"), { listener: (e) => e.type === "delta" && deltas.push(e.text) });
    expect(deltas).toEqual(["all at once"]);
  });

  test("the work is cancelled when its only caller goes away, and kept while another still waits", async () => {
    const alone = new StreamingWriter(50);
    const gone = new AbortController();
    const failed = service(alone).answer(request("alone"), { signal: gone.signal }).catch((e) => e);
    await new Promise((resolve) => setTimeout(resolve, 10));
    gone.abort();
    await failed;
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(alone.aborted).toBe(true);

    const shared = new StreamingWriter(50);
    const chat = service(shared);
    const leaving = new AbortController();
    const left = chat.answer(request("shared"), { signal: leaving.signal }).catch((e) => e);
    const staying = chat.answer(request("shared"));
    await new Promise((resolve) => setTimeout(resolve, 10));
    leaving.abort();
    await left;
    expect((await staying).response.output).toBe("one two three");
    expect(shared.aborted).toBe(false);
  });
});
