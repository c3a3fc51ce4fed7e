/** @module Progress events of the use case numbered as MCP progress notifications. */
import { describe, expect, test } from "bun:test";
import { createProgressSteps } from "../../../src/app/mcp/progress.ts";
import type { AnswerProgress } from "../../../src/domain/ports.ts";

const run = (events: AnswerProgress[]) => {
  const steps = createProgressSteps();
  return events.map((event) => steps.next(event));
};

describe("createProgressSteps", () => {
  test("a long video: transcript, each part read, writing; increasing, with the total once the parts are known", () => {
    const steps = run([
      { stage: "transcript" },
      { stage: "reading", done: 0, total: 3 },
      { stage: "reading", done: 1, total: 3 },
      { stage: "reading", done: 2, total: 3 },
      { stage: "reading", done: 3, total: 3 },
      { stage: "writing" },
    ]);
    expect(steps).toEqual([
      { progress: 1, message: "Fetching the transcript" },
      { progress: 2, total: 6, message: "Reading the transcript in 3 parts" },
      { progress: 3, total: 6, message: "Read part 1 of 3" },
      { progress: 4, total: 6, message: "Read part 2 of 3" },
      { progress: 5, total: 6, message: "Read part 3 of 3" },
      { progress: 6, total: 6, message: "Writing the answer" },
    ]);
  });

  test("a caption-less video: its transcription's pieces come between the transcript and the writing, increasing", () => {
    const steps = run([
      { stage: "transcript" },
      { stage: "transcribing", done: 0, total: 3 },
      { stage: "transcribing", done: 1, total: 3 },
      { stage: "transcribing", done: 3, total: 3 },
      { stage: "writing" },
    ]);
    expect(steps).toEqual([
      { progress: 1, message: "Fetching the transcript" },
      { progress: 1.2, message: "Transcribing the audio in 3 pieces" },
      { progress: 1.4, message: "Transcribed piece 1 of 3" },
      { progress: 1.8, message: "Transcribed piece 3 of 3" },
      { progress: 2, message: "Writing the answer" },
    ]);
  });

  test("a short video: transcript then writing, with no total", () => {
    expect(run([{ stage: "transcript" }, { stage: "writing" }])).toEqual([
      { progress: 1, message: "Fetching the transcript" },
      { progress: 2, message: "Writing the answer" },
    ]);
  });

  test("a step that would not increase progress is not sent (writing reported again)", () => {
    expect(run([{ stage: "transcript" }, { stage: "writing" }, { stage: "writing" }, { stage: "transcript" }]).slice(2))
      .toEqual([undefined, undefined]);
  });
});
