/** @module End-to-end tests of streamed answers (Server-Sent Events): events, timeouts, refusals and failures. */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { ANSWERS } from "../support/fake/llm.ts";
import { VIDEOS, watchUrl } from "../support/fixtures.ts";
import { captionXml, generateCues } from "../support/long-transcript.ts";
import { requestLogLines } from "../support/request-log-lines.ts";
import { postChat, targetFromEnv } from "../support/service/process.ts";
import { deltaText, eventNames, readEvents } from "../support/sse.ts";
import { API_KEY, type LlmHarness, startLlmHarness } from "./llm-harness.ts";

let h: LlmHarness;
beforeAll(async () => {
  // A budget that does not pace (the subject is streaming), and a request time limit shorter than a slow model.
  h = await startLlmHarness({
    STREAM_KEEPALIVE_MS: "200",
    MAX_IN_FLIGHT: "2",
    MAX_IN_FLIGHT_PER_KEY: "2",
    REQUEST_TIMEOUT_MS: "1500",
    TRANSCRIPT_CACHE_TTL_MS: "0",
    LLM_TOKENS_PER_MINUTE: "100000000",
    LLM_REQUESTS_PER_MINUTE: "1000000",
  });
});
afterAll(() => h?.close());
beforeEach(() => {
  h.youtube.reset();
  h.llm.reset();
});

const SSE = { "x-api-key": API_KEY, accept: "text/event-stream" };
const stream = (body: unknown, init: { signal?: AbortSignal } = {}) =>
  fetch(`${h.service.url}/chat`, {
    method: "POST",
    headers: { ...SSE, "content-type": "application/json" },
    body: JSON.stringify(body),
    signal: init.signal,
  });

/** An answer of three paragraphs, long enough for the language check to judge its first one. */
const LONG_ANSWER = [
  ANSWERS.en!,
  "The battery lasts about nine hours of light use, which the reviewer finds enough for a day [0:01].",
  "In short, a good small tablet for the price [0:01].",
].join("\n\n");

async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await Bun.sleep(10);
  }
}

describe(`POST /chat with Accept: text/event-stream (${targetFromEnv()})`, () => {
  test("streams progress, deltas whose concatenation is done.output, and done equal to the JSON body, as the last event", async () => {
    h.llm.respondWith(() => ({ content: LONG_ANSWER, chunkChars: 7 }));
    const body = { url: watchUrl("normal"), prompt: "What does he think? (events)" };
    const response = await stream(body);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toStartWith("text/event-stream");
    expect(response.headers.get("cache-control")).toBe("no-cache");
    expect(response.headers.get("x-request-id")).toBeTruthy();
    const events = await readEvents(response);
    const names = eventNames(events);
    expect(names[0]).toBe("progress");
    expect(events[0]!.data).toEqual({ stage: "transcript" });
    expect(events.some((e) => e.event === "progress" && e.data.stage === "writing")).toBe(true);
    expect(names.filter((n) => n === "delta").length).toBeGreaterThanOrEqual(2);
    expect(names.at(-1)).toBe("done");
    const done = events.at(-1)!.data;
    expect(deltaText(events)).toBe(done.output);
    expect(done.output).toBe(LONG_ANSWER);
    expect(h.llm.calls[0]!.stream).toBe(true);
    // The same request without the header gets the cached answer: the same seven fields.
    const json = await (await postChat(h.service.url, body, { "x-api-key": API_KEY })).json();
    expect(done).toEqual(json);
    expect(Object.keys(done).sort()).toEqual([
      "language",
      "model",
      "output",
      "output_format",
      "prompt",
      "url",
      "video_duration",
    ]);
    // The request log's line is written once the stream has ended, with what the answer cost.
    expect((await requestLogLines(h.service, response))[0]).toMatchObject({
      status: 200,
      cache: "miss",
      work: "owner",
      llm_calls: 1,
      plan: "one-call",
    });
  });

  test("a long video streams progress while its parts are read (done out of total), then writing, then the answer", async () => {
    h.youtube.setCaption(VIDEOS.normal.id, captionXml(generateCues(3600)));
    h.llm.respondWith((call) => ({
      content: /Part \d+ of \d+/.test(call.text) ? "- [0:00] Notes on a part." : ANSWERS.en!,
      delayMs: 20,
    }));
    const events = await readEvents(await stream({ url: watchUrl("normal"), prompt: "summary" }));
    const progress = events.filter((e) => e.event === "progress").map((e) => e.data);
    const reading = progress.filter((p) => p.stage === "reading");
    const total = reading[0].total;
    expect(total).toBeGreaterThanOrEqual(2);
    expect(reading.map((p) => p.done)).toEqual(Array.from({ length: total + 1 }, (_, i) => i));
    expect(progress.at(-1)).toEqual({ stage: "writing" });
    expect(deltaText(events)).toBe(events.at(-1)!.data.output);
    expect(deltaText(events)).toStartWith("The video reviews the Surface Go");
    expect(h.llm.calls.filter((call) => call.stream)).toHaveLength(1);
  });

  test("a streamed request runs on STREAM_TIMEOUT_MS: it finishes where the same work without the header times out", async () => {
    h.llm.respondWith(() => ({ content: ANSWERS.en!, delayMs: 2_000 }));
    const json = await postChat(h.service.url, { url: watchUrl("normal"), prompt: "slow json" }, {
      "x-api-key": API_KEY,
    });
    expect(json.status).toBe(504);
    const events = await readEvents(await stream({ url: watchUrl("normal"), prompt: "slow stream" }));
    expect(eventNames(events).at(-1)).toBe("done");
  });

  test("refusals before the work are the usual JSON errors with their status", async () => {
    const noKey = await fetch(`${h.service.url}/chat`, {
      method: "POST",
      headers: { accept: "text/event-stream", "content-type": "application/json" },
      body: "{}",
    });
    expect(noKey.status).toBe(401);
    expect(noKey.headers.get("content-type")).toContain("application/json");
    const invalid = await stream({ url: "https://example.com/video" });
    expect(invalid.status).toBe(400);
    expect((await invalid.json()).error.code).toBe("invalid_request");
  });

  test("overloaded is refused as JSON 503 before the stream opens", async () => {
    h.llm.respondWith(() => ({ content: ANSWERS.en!, delayMs: 3_000 }));
    const stop = new AbortController();
    const busy = ["one", "two"].map((word) =>
      stream({ url: watchUrl("normal"), prompt: `busy ${word}?` }, { signal: stop.signal }).catch(() => undefined)
    );
    await waitFor(() => h.llm.calls.length >= 2);
    const refused = await stream({ url: watchUrl("normal"), prompt: "a third one?" });
    expect(refused.status).toBe(503);
    expect((await refused.json()).error.code).toBe("overloaded");
    stop.abort();
    await Promise.all(busy);
    // Both callers left: their LLM calls are cancelled, which frees the two places for the next tests.
    await waitFor(() => h.llm.calls.every((call) => call.closedAt !== undefined), 2_000);
    await Bun.sleep(200);
  });

  test("a failure after the stream opened is its last event, the usual error body", async () => {
    const response = await stream({ url: watchUrl("unavailable") });
    expect(response.status).toBe(200);
    const events = await readEvents(response);
    expect(eventNames(events)).toEqual(["progress", "error"]);
    const error = events.at(-1)!.data.error;
    expect(error.code).toBe("video_unavailable");
    expect(error.request_id).toBe(response.headers.get("x-request-id"));
    expect((await requestLogLines(h.service, response))[0]).toMatchObject({
      status: 200,
      error_code: "video_unavailable",
    });
  });

  test("no wrong-language text is streamed: a model answering in English to a Portuguese request is rewritten, and only Portuguese goes out", async () => {
    h.llm.respondWith((_, index) => ({ content: index === 0 ? ANSWERS.en! : ANSWERS.pt!, chunkChars: 5 }));
    const events = await readEvents(
      await stream({ url: watchUrl("normal"), language: "pt", prompt: "O que ele acha? (stream)" }),
    );
    expect(h.llm.calls).toHaveLength(2);
    expect(deltaText(events)).toBe(ANSWERS.pt!);
    expect(events.at(-1)!.data.output).toBe(ANSWERS.pt!);
  });

  test("a text stream carries no Markdown: the model's Markdown goes out as plain text, block by block", async () => {
    h.llm.respondWith(() => ({
      content:
        "## Summary\n\nThe **Surface Go** is [reviewed](https://example.com) [0:01].\n\n* Light\n* `Cheap`\n\n| Part | Verdict |\n|---|---|\n| Screen | Good |",
      chunkChars: 3,
    }));
    const events = await readEvents(
      await stream({ url: watchUrl("normal"), output_format: "text", prompt: "Markdown please" }),
    );
    const deltas = events.filter((e) => e.event === "delta").map((e) => e.data.text as string);
    for (const delta of deltas) expect(delta).not.toMatch(/\*\*|#|```|\|---|^\* /m);
    expect(deltas.join("")).toBe(
      "Summary\n\nThe Surface Go is reviewed (https://example.com) [0:01].\n\n- Light\n- Cheap\n\n- Part: Screen; Verdict: Good",
    );
  });

  test("citations are checked before their line goes out", async () => {
    h.llm.respondWith(() => ({ content: "He says so at [0:01].\n\nAnd again at [42:00].", chunkChars: 4 }));
    const events = await readEvents(
      await stream({ url: watchUrl("normal"), output_format: "markdown", prompt: "When? (stream)" }),
    );
    expect(deltaText(events)).toBe("He says so at [0:01].\n\nAnd again at.");
  });

  test("a cached answer streams one delta with the whole text and done at once", async () => {
    const body = { url: watchUrl("normal"), prompt: "cached stream?" };
    await readEvents(await stream(body));
    const events = await readEvents(await stream(body));
    expect(eventNames(events)).toEqual(["delta", "done"]);
    expect(events[0]!.data.text).toBe(events[1]!.data.output);
    expect(h.llm.calls).toHaveLength(1);
  });

  test("a request joining an identical one in flight gets the same deltas from the beginning", async () => {
    h.llm.respondWith(() => ({ content: LONG_ANSWER, chunkChars: 10, chunkDelayMs: 40 }));
    const body = { url: watchUrl("normal"), prompt: "joined?" };
    const first = await stream(body);
    const firstEvents: Awaited<ReturnType<typeof readEvents>> = [];
    const reading = readEvents(first, {
      stopAfter: (events) => (firstEvents.splice(0, firstEvents.length, ...events), false),
    });
    await waitFor(() => firstEvents.some((e) => e.event === "delta"));
    const second = await readEvents(await stream(body));
    const deltas = (events: typeof second) => events.filter((e) => e.event === "delta").map((e) => e.data.text);
    const all = await reading;
    expect(deltas(second)).toEqual(deltas(all));
    expect(deltaText(second)).toBe(LONG_ANSWER);
    expect(h.llm.calls).toHaveLength(1);
  });

  test("a streamed caller that goes away closes the LLM call within a second", async () => {
    h.llm.respondWith(() => ({ content: LONG_ANSWER, chunkChars: 2, chunkDelayMs: 200 }));
    const stop = new AbortController();
    const response = await stream({ url: watchUrl("normal"), prompt: "leaving early" }, { signal: stop.signal });
    await waitFor(() => h.llm.calls.length >= 1);
    stop.abort();
    await response.body?.cancel().catch(() => {});
    const left = performance.now();
    await waitFor(() => h.llm.calls[0]!.closedAt !== undefined, 2_000);
    expect(h.llm.calls[0]!.closedAt! - left).toBeLessThan(1_000);
  });

  test("a streamed caller that goes away after text has started closes the LLM call within a second", async () => {
    h.llm.respondWith(() => ({ content: LONG_ANSWER, chunkChars: 3, chunkDelayMs: 30 }));
    const stop = new AbortController();
    const response = await stream({ url: watchUrl("normal"), prompt: "leaving mid-answer" }, { signal: stop.signal });
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let seen = "";
    while (!seen.includes("event: delta")) {
      const { value, done } = await reader.read();
      if (done) break;
      seen += decoder.decode(value);
    }
    expect(seen).toContain("event: delta");
    stop.abort();
    await reader.cancel().catch(() => {});
    const left = performance.now();
    await waitFor(() => h.llm.calls[0]!.closedAt !== undefined, 2_000);
    expect(h.llm.calls[0]!.closedAt! - left).toBeLessThan(1_000);
  });

  test("a caller that goes away cancels nothing while another caller still shares the work", async () => {
    h.llm.respondWith(() => ({ content: LONG_ANSWER, chunkChars: 10, chunkDelayMs: 30 }));
    const body = { url: watchUrl("normal"), prompt: "shared, then one leaves" };
    const stop = new AbortController();
    const leaving = await stream(body, { signal: stop.signal });
    await waitFor(() => h.llm.calls.length >= 1);
    const staying = postChat(h.service.url, body, { "x-api-key": API_KEY });
    await Bun.sleep(100);
    stop.abort();
    await leaving.body?.cancel().catch(() => {});
    const response = await staying;
    expect(response.status).toBe(200);
    expect((await response.json()).output).toBe(LONG_ANSWER);
    expect(h.llm.calls).toHaveLength(1);
  });

  test("a non-streamed caller that goes away closes the LLM call within a second", async () => {
    h.llm.respondWith(() => ({ hang: true }));
    const stop = new AbortController();
    const pending = postChatAbortable({ url: watchUrl("normal"), prompt: "leaving too" }, stop.signal);
    await waitFor(() => h.llm.calls.length >= 1);
    stop.abort();
    await pending;
    const left = performance.now();
    await waitFor(() => h.llm.calls[0]!.closedAt !== undefined, 2_000);
    expect(h.llm.calls[0]!.closedAt! - left).toBeLessThan(1_000);
  });

  test("a slow model's stream gets a keep-alive comment after each silence (STREAM_KEEPALIVE_MS)", async () => {
    h.llm.respondWith(() => ({ content: ANSWERS.en!, delayMs: 900 }));
    const events = await readEvents(await stream({ url: watchUrl("normal"), prompt: "slow one" }));
    const firstDelta = events.findIndex((e) => e.event === "delta");
    const comments = events.slice(0, firstDelta).filter((e) => e.event === "comment");
    expect(comments.length).toBeGreaterThanOrEqual(3);
    expect(comments[0]!.data).toBe("keep-alive");
    expect(eventNames(events).at(-1)).toBe("done");
  });
});

function postChatAbortable(body: unknown, signal: AbortSignal): Promise<unknown> {
  return fetch(`${h.service.url}/chat`, {
    method: "POST",
    headers: { "x-api-key": API_KEY, "content-type": "application/json" },
    body: JSON.stringify(body),
    signal,
  }).catch((error) => error);
}
