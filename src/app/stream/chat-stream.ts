/** @module Streams a chat answer as Server-Sent Events, with keep-alives and bounded buffering. */
import type { ChatResponse } from "../../domain/chat.ts";
import { AppError } from "../../domain/errors.ts";
import type { AnswerListener } from "../../domain/generation.ts";
import type { LiveStreams } from "./live-streams.ts";

export interface ChatStreamOptions {
  /** Headers of the 200 (x-request-id, RateLimit-*, CORS); the stream's own are added. */
  headers: Record<string, string>;
  /** Longest silence before a `: keep-alive` comment (`STREAM_KEEPALIVE_MS`). */
  keepAliveMs: number;
  live: LiveStreams;
  /**
   * Starts the work, its events to `listener`.
   *
   * @param gone aborted when the caller goes away
   * @returns the body a non-streamed request would get
   */
  run(listener: AnswerListener, gone: AbortSignal): Promise<ChatResponse>;
  /** The error body of the usual JSON error, for a failure once the stream is open. */
  errorBody(error: unknown): object;
  /** The stream calls this once it ends after opening: whether it sent `done` (else an error, or its caller left). */
  onEnd?: (done: boolean) => void;
}

/** How long the stream waits for the work to be admitted (its first event) before opening anyway. */
const OPEN_AFTER_MS = 250;

const encoder = new TextEncoder();

const CHANGED =
  "The instance writing this answer stopped part-way and the answer was written again; send the request again";

/**
 * `POST /chat` as Server-Sent Events (README, Streaming). The work is started
 * first: a refusal before its first event (`overloaded`) or an answer that
 * fails at once is thrown, to be answered as the usual JSON error. Otherwise
 * the 200 goes out with `progress` and `delta` events as they come, then
 * `done` (the non-streamed body) or `error`, and a comment after each
 * silence of `keepAliveMs`.
 *
 * What waits for a slow reader is bounded: the events of one answer (its
 * text is at most `LLM_MAX_OUTPUT_TOKENS`), and no keep-alive is queued
 * behind unsent data.
 *
 * @throws what `run` throws before the stream opens
 */
export async function streamChat(options: ChatStreamOptions): Promise<Response> {
  const gone = new AbortController();
  const sink = new EventSink(options.keepAliveMs, () => gone.abort(new Error("The caller went away")));
  const outcome = options.run(
    (event) => (event.type === "delta" ? sink.delta(event.text) : sink.send("progress", event.progress)),
    gone.signal,
  );
  let timer: ReturnType<typeof setTimeout> | undefined;
  const opened = new Promise<void>((resolve) => {
    sink.onFirst = resolve;
    timer = setTimeout(resolve, OPEN_AFTER_MS);
  });
  try {
    await Promise.race([opened, outcome]);
  } catch (error) {
    sink.discard(); // never sent: its keep-alive timer must not run on
    throw error;
  } finally {
    clearTimeout(timer);
  }
  // Deltas that the answer does not continue (an owner on another instance died mid-answer, and
  // the work was done again): the caller cannot be given that answer's text byte for byte.
  const ended = outcome.then(
    (body) =>
      body.output.startsWith(sink.sent)
        ? sink.finish(body)
        : sink.fail(options.errorBody(new AppError("upstream_error", CHANGED))),
    (error) => sink.fail(options.errorBody(error)),
  ).then((done) => options.onEnd?.(done));
  const headers = {
    ...options.headers,
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache",
    "x-accel-buffering": "no",
  };
  const response = new Response(sink.stream, { headers });
  const stream = { interrupt: (reason: unknown) => sink.fail(options.errorBody(reason)) };
  return options.live.add(stream, response, Promise.race([ended, sink.closed]));
}

/** The stream's bytes: events queued for the reader, the keep-alive timer, and what went out as deltas. */
class EventSink {
  readonly stream: ReadableStream<Uint8Array>;
  readonly closed: Promise<void>;
  onFirst = (): void => {};
  #controller!: ReadableStreamDefaultController<Uint8Array>;
  #open = true;
  #sent = "";
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #keepAliveMs: number;
  #markClosed = (): void => {};

  constructor(keepAliveMs: number, onCancel: () => void) {
    this.#keepAliveMs = keepAliveMs;
    this.closed = new Promise((resolve) => (this.#markClosed = resolve));
    this.stream = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.#controller = controller;
      },
      cancel: () => {
        this.#close();
        onCancel();
      },
    });
    this.#arm();
  }

  /** The text of the deltas sent so far. */
  get sent(): string {
    return this.#sent;
  }

  send(event: string, data: unknown): void {
    this.#write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    this.onFirst();
  }

  delta(text: string): void {
    this.#sent += text;
    this.send("delta", { text });
  }

  /**
   * The last events of an answer: what the deltas lacked of it (a cached or remote answer: all of it), then `done`.
   *
   * @returns whether `done` was sent (the caller may have left)
   */
  finish(body: ChatResponse): boolean {
    if (!this.#open) return false;
    if (body.output.startsWith(this.#sent) && body.output.length > this.#sent.length) {
      this.delta(body.output.slice(this.#sent.length));
    }
    this.send("done", body);
    this.#end();
    return true;
  }

  /** The stream will not be sent (the request was refused before it opened). */
  discard(): void {
    this.#close();
  }

  /** @returns false: no `done` was sent */
  fail(body: object): false {
    if (this.#open) {
      this.send("error", body);
      this.#end();
    }
    return false;
  }

  #write(text: string): void {
    if (!this.#open) return;
    this.#controller.enqueue(encoder.encode(text));
    this.#arm();
  }

  #arm(): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      // Behind unsent events a comment would add nothing: the reader is slow, not the stream silent.
      if ((this.#controller.desiredSize ?? 0) > 0) this.#write(": keep-alive\n\n");
      else this.#arm();
    }, this.#keepAliveMs);
  }

  #end(): void {
    if (!this.#open) return;
    this.#controller.close();
    this.#close();
  }

  #close(): void {
    this.#open = false;
    clearTimeout(this.#timer);
    this.#markClosed();
  }
}
