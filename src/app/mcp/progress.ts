/** @module The use case's progress events as MCP progress notifications: increasing, with a total once known. */
import type { AnswerProgress } from "../../domain/ports.ts";

/** One `notifications/progress` payload, without its token. */
export interface ProgressStep {
  progress: number;
  total?: number;
  message: string;
}

/**
 * Numbers the stages of one answer: the transcript is step 1, transcribing
 * piece k of M (speech-to-text) 1 + (k + 1) / (M + 2), reading part
 * k of N (a long video) is step 2 + k, writing comes after the reading
 * (step N + 3, or 2 without it). `total` is N + 3 once the number of parts
 * is known; before that it is not sent, as the work may still turn long.
 * A step that would not increase `progress` (writing is reported more than
 * once) is dropped, as MCP requires progress to grow.
 *
 * @returns `next`, which maps an event to its notification, or undefined to send none
 */
export function createProgressSteps(): { next(event: AnswerProgress): ProgressStep | undefined } {
  let last = 0;
  let parts: number | undefined;
  const step = (progress: number, message: string): ProgressStep | undefined => {
    if (progress <= last) return undefined;
    last = progress;
    return parts === undefined ? { progress, message } : { progress, total: parts + 3, message };
  };
  return {
    next(event) {
      switch (event.stage) {
        case "transcript":
          return step(1, "Fetching the transcript");
        case "transcribing":
          // Between the transcript (1) and the reading (2): fractions that grow with the pieces transcribed.
          return step(
            1 + (event.done + 1) / (event.total + 2),
            event.done === 0
              ? `Transcribing the audio in ${event.total} pieces`
              : `Transcribed piece ${event.done} of ${event.total}`,
          );
        case "reading":
          parts = event.total;
          return step(
            2 + event.done,
            event.done === 0
              ? `Reading the transcript in ${event.total} parts`
              : `Read part ${event.done} of ${event.total}`,
          );
        case "writing":
          return step(parts === undefined ? 2 : parts + 3, "Writing the answer");
      }
    },
  };
}
