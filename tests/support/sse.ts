/** @module Reads a Server-Sent Events response to its end, with helpers for deltas and event names. */
// deno-lint-ignore-file no-explicit-any -- reads JSON whose shape is checked field by field where it is used
import { createParser } from "eventsource-parser";

/** One Server-Sent Event as a client reads it, with when it arrived (performance.now()). */
export interface ReadEvent {
  /** The event's name, or `comment` for a comment line. */
  event: string;
  data: any;
  at: number;
}

/**
 * Reads a `text/event-stream` response to its end with eventsource-parser, a
 * maintained SSE parser (what a client would use): every event with its JSON
 * data, and comments (keep-alives) as `comment` events.
 *
 * @param options.stopAfter stops reading (cancels the body) once this returns true
 */
export async function readEvents(
  response: Response,
  options: { stopAfter?: (events: ReadEvent[]) => boolean } = {},
): Promise<ReadEvent[]> {
  const events: ReadEvent[] = [];
  const parser = createParser({
    onEvent: (message) =>
      events.push({ event: message.event ?? "message", data: JSON.parse(message.data), at: performance.now() }),
    onComment: (comment) => events.push({ event: "comment", data: comment.trim(), at: performance.now() }),
  });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.feed(value);
    if (options.stopAfter?.(events)) {
      await reader.cancel();
      break;
    }
  }
  return events;
}

/** @returns the deltas' text, concatenated */
export function deltaText(events: readonly ReadEvent[]): string {
  return events.filter((e) => e.event === "delta").map((e) => e.data.text as string).join("");
}

/** @returns the events' names, comments left out */
export function eventNames(events: readonly ReadEvent[]): string[] {
  return events.filter((e) => e.event !== "comment").map((e) => e.event);
}

/**
 * Reads a stream until its first delta, then closes the connection (`gone`) as a client that hangs up does.
 *
 * @returns `hung up mid-stream`, or how the stream ended without a delta (`error` or `ended`)
 */
export async function hangUpAfterDelta(response: Response, gone: AbortController): Promise<string> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  while (!seen.includes("event: delta")) {
    const { value, done } = await reader.read();
    if (done) return seen.includes("event: error") ? "error" : "ended";
    seen += value;
  }
  gone.abort();
  await reader.cancel().catch(() => {});
  return "hung up mid-stream";
}
