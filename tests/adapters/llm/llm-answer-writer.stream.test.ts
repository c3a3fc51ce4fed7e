/** @module Tests of the LLM answer writer on a streamed request: deltas, rewrites, progress and cut streams. */
import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import {
  createOpenAiCompatibleAnswerWriter,
  type OpenAiCompatibleWriterOptions,
} from "../../../src/adapters/llm/openai-compatible-answer-writer.ts";
import type { AnswerSpec } from "../../../src/domain/ports.ts";
import { isAppError } from "../../../src/domain/errors.ts";
import { ANSWERS, startFakeLlm } from "../../support/fake/llm.ts";
import { generateCues } from "../../support/long-transcript.ts";
import { short, writerOptions, writerSpec } from "./writer-fixtures.ts";

const llm = startFakeLlm();
afterAll(() => llm.close());
beforeEach(() => llm.reset());

const options = (overrides: Partial<OpenAiCompatibleWriterOptions> = {}) => writerOptions(llm.baseUrl, overrides);
const spec = writerSpec;

/** A spec whose events are recorded. */
function streamed(overrides: Partial<AnswerSpec> = {}): { spec: AnswerSpec; deltas: string[]; progress: unknown[] } {
  const deltas: string[] = [];
  const progress: unknown[] = [];
  return {
    deltas,
    progress,
    spec: spec({ ...overrides, events: { delta: (text) => deltas.push(text), progress: (p) => progress.push(p) } }),
  };
}

describe("createOpenAiCompatibleAnswerWriter() with events (a streamed request)", () => {
  test("asks the model to stream and sends deltas that join to the answer's text", async () => {
    const content = `${ANSWERS.en!}\n\nA second paragraph with **bold** words [0:01].\n\nA third.`;
    llm.respondWith(() => ({ content, chunkChars: 5 }));
    const run = streamed();
    const answer = await createOpenAiCompatibleAnswerWriter(options()).write(run.spec);
    expect(llm.calls[0]!.stream).toBe(true);
    expect(run.deltas.length).toBe(3);
    expect(run.deltas.join("")).toBe(answer.text);
    expect(answer.text).toBe(`${ANSWERS.en!}\n\nA second paragraph with bold words [0:01].\n\nA third.`);
    expect(run.progress).toEqual([{ stage: "writing" }]);
    expect(answer.usage?.outputTokens).toBeGreaterThan(0);
  });

  test("a first answer in the wrong language sends nothing: only the rewrite is streamed", async () => {
    llm.respondWith((_, index) => ({ content: index === 0 ? ANSWERS.en! : ANSWERS.es!, chunkChars: 4 }));
    const run = streamed({ language: "es" });
    const answer = await createOpenAiCompatibleAnswerWriter(options()).write(run.spec);
    expect(run.deltas.join("")).toBe(ANSWERS.es!);
    expect(answer.text).toBe(ANSWERS.es!);
  });

  test("a long video reports the parts read, done out of total, before writing", async () => {
    const run = streamed({ transcript: { ...short, cues: generateCues(3600) } });
    await createOpenAiCompatibleAnswerWriter(options()).write(run.spec);
    const reading = run.progress.filter((p) => (p as { stage: string }).stage === "reading") as {
      done: number;
      total: number;
    }[];
    expect(reading.length).toBeGreaterThan(2);
    expect(reading[0]).toEqual({ stage: "reading", done: 0, total: reading[0]!.total } as never);
    expect(reading.at(-1)!.done).toBe(reading[0]!.total);
    expect(run.progress.at(-1)).toEqual({ stage: "writing" });
    expect(llm.calls.filter((call) => call.stream)).toHaveLength(1);
  });

  test("a stream cut after text went out fails the answer, and the call is not retried", async () => {
    llm.respondWith((
      _,
      index,
    ) => (index === 0
      ? {
        content: `${ANSWERS.en!}\n\nMore text that never arrives in full.`,
        chunkChars: 40,
        chunkDelayMs: 30,
        cutAfterChunks: 5,
      }
      : { content: ANSWERS.en! })
    );
    const run = streamed();
    const error = await createOpenAiCompatibleAnswerWriter(options()).write(run.spec).catch((e) => e);
    expect(run.deltas.join("")).toBe(ANSWERS.en!);
    expect(isAppError(error, "upstream_error")).toBe(true);
    expect(llm.calls).toHaveLength(1);
  });
});
