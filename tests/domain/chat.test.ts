/** @module Tests of the chat use case: languages, durations, the answer cache, sharing, deadlines and errors. */
import { describe, expect, test } from "bun:test";
import { createChatService, type GeneratedAnswer } from "../../src/domain/chat.ts";
import { createChatRequest } from "../../src/domain/chat-request.ts";
import { isAppError } from "../../src/domain/errors.ts";
import type { Cache, SharedFlight } from "../../src/domain/ports.ts";
import { FakeTranscripts, FakeWriter, noCache, openGate } from "../support/fake/ports.ts";

function mapCache(): Cache<GeneratedAnswer> & { map: Map<string, GeneratedAnswer> } {
  const map = new Map<string, GeneratedAnswer>();
  return { map, get: async (k) => map.get(k), set: async (k, v) => void map.set(k, v) };
}

const request = (body: Record<string, unknown> = {}) =>
  createChatRequest({ url: "https://youtu.be/GJLlxj_dtq8", ...body });

describe("ChatService.answer()", () => {
  test("asks the transcript source for the response language and words the duration", async () => {
    const transcripts = new FakeTranscripts();
    const writer = new FakeWriter();
    const chat = createChatService({
      transcripts,
      writer,
      answers: noCache,
      answerTtlMs: 0,
      gate: openGate,
      requestTimeoutMs: 1000,
    });
    const { response } = await chat.answer(request({ language: "pt", prompt: "why?" }));
    expect(transcripts.calls[0]!.query.languages).toEqual(["pt"]);
    expect(writer.specs[0]!.intent).toBe("detail");
    expect(response).toEqual({
      url: "https://youtu.be/GJLlxj_dtq8",
      model: "chat-1.0",
      prompt: "why?",
      language: "pt",
      output_format: "text",
      output: "answer to why? in pt as text",
      video_duration: "5 minutes",
    });
  });

  test("serves a repeat from the answer cache, echoing each caller's own prompt", async () => {
    const writer = new FakeWriter();
    const answers = mapCache();
    const chat = createChatService({
      transcripts: new FakeTranscripts(),
      writer,
      answers,
      answerTtlMs: 60_000,
      gate: openGate,
      requestTimeoutMs: 1000,
    });
    await chat.answer(request({ prompt: "summary" }));
    const second = await chat.answer(request({ prompt: " SUMMARY " }));
    expect(writer.specs.length).toBe(1);
    expect(second.cache).toBe("hit");
    expect(second.response.prompt).toBe(" SUMMARY ");
  });

  test("reads each prompt's intent for the writer; a whole-video request is cached by its own words", async () => {
    const writer = new FakeWriter();
    const chat = createChatService({
      transcripts: new FakeTranscripts(),
      writer,
      answers: mapCache(),
      answerTtlMs: 60_000,
      gate: openGate,
      requestTimeoutMs: 1000,
    });
    await chat.answer(request({ prompt: "Summarize this video" }));
    await chat.answer(request({ prompt: "Resume este video" }));
    const again = await chat.answer(request({ prompt: "Summarize this video" }));
    await chat.answer(request({ prompt: "How long does the battery last?" }));
    await chat.answer(request({}));
    expect(writer.specs.map((spec) => [spec.prompt, spec.intent])).toEqual([
      ["Summarize this video", "whole"],
      ["Resume este video", "whole"],
      ["How long does the battery last?", "detail"],
      ["summary", "summary"],
    ]);
    expect(again.cache).toBe("hit");
  });

  test("makes concurrent identical requests share one generation", async () => {
    const transcripts = new FakeTranscripts();
    transcripts.delayMs = 20;
    const writer = new FakeWriter();
    const chat = createChatService({
      transcripts,
      writer,
      answers: noCache,
      answerTtlMs: 0,
      gate: openGate,
      requestTimeoutMs: 1000,
    });
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => chat.answer(request({ prompt: "same" }))));
    expect(writer.specs.length).toBe(1);
    expect(transcripts.calls.length).toBe(1);
    expect(outcomes.filter((o) => o.cache === "shared").length).toBe(4);
  });

  test("hands the observer of the caller that runs the work to the transcript fetch and the writer; a joiner's to none", async () => {
    const transcripts = new FakeTranscripts();
    transcripts.delayMs = 20;
    const writer = new FakeWriter();
    const chat = createChatService({
      transcripts,
      writer,
      answers: noCache,
      answerTtlMs: 0,
      gate: openGate,
      requestTimeoutMs: 1000,
    });
    const [owner, joiner] = [{}, {}];
    const outcomes = await Promise.all([
      chat.answer(request({ prompt: "same" }), { observer: owner }),
      chat.answer(request({ prompt: "same" }), { observer: joiner }),
    ]);
    expect(outcomes.map((o) => o.work)).toEqual(["owner", "local"]);
    expect(transcripts.calls.map((call) => call.query.observer)).toEqual([owner]);
    expect(transcripts.calls[0]!.query.observer).toBe(owner);
    expect(writer.specs.map((spec) => spec.observer)).toEqual([owner]);
    expect(writer.specs[0]!.observer).toBe(owner);
  });

  test("stops work that outlasts the request time limit with upstream_timeout", async () => {
    const transcripts = new FakeTranscripts();
    transcripts.delayMs = 500;
    const chat = createChatService({
      transcripts,
      writer: new FakeWriter(),
      answers: noCache,
      answerTtlMs: 0,
      gate: openGate,
      requestTimeoutMs: 50,
    });
    const started = performance.now();
    const error = await chat.answer(request()).catch((e) => e);
    expect(isAppError(error, "upstream_timeout")).toBe(true);
    expect(performance.now() - started).toBeLessThan(400);
  });

  test("passes upstream errors through unchanged", async () => {
    const transcripts = new FakeTranscripts();
    transcripts.failWith = "video_unavailable";
    const chat = createChatService({
      transcripts,
      writer: new FakeWriter(),
      answers: noCache,
      answerTtlMs: 0,
      gate: openGate,
      requestTimeoutMs: 1000,
    });
    expect(isAppError(await chat.answer(request()).catch((e) => e), "video_unavailable")).toBe(true);
  });

  test("tells who did the work, and a waiter keeps its own deadline on shared work that never ends", async () => {
    const writer = new FakeWriter();
    const keys: string[] = [];
    const remote: SharedFlight = {
      run: async <T>(key: string, _work: (signal: AbortSignal) => Promise<T>, options?: { signal?: AbortSignal }) => {
        keys.push(key);
        if (key.includes("never")) {
          return await new Promise<never>((_, reject) =>
            options?.signal?.addEventListener("abort", () => reject(options.signal!.reason))
          );
        }
        return {
          value: {
            output: "from elsewhere",
            videoSeconds: 60,
            transcriptLanguage: "en",
            timings: { transcriptMs: 1, generationMs: 2 },
          } as T,
          role: "remote" as const,
        };
      },
    };
    const chat = createChatService({
      transcripts: new FakeTranscripts(),
      writer,
      answers: noCache,
      answerTtlMs: 0,
      gate: openGate,
      requestTimeoutMs: 50,
      flights: remote,
    });
    const shared = await chat.answer(request({ prompt: "elsewhere" }));
    expect([shared.cache, shared.work, shared.response.output]).toEqual(["shared", "remote", "from elsewhere"]);
    expect(keys[0]).toStartWith("answer:");
    const error = await chat.answer(request({ prompt: "never" })).catch((e) => e);
    expect(isAppError(error, "upstream_timeout")).toBe(true);
    expect(writer.specs).toHaveLength(0);
    const local = await createChatService({
      transcripts: new FakeTranscripts(),
      writer,
      answers: noCache,
      answerTtlMs: 0,
      gate: openGate,
      requestTimeoutMs: 1000,
    }).answer(request());
    expect([local.cache, local.work]).toEqual(["miss", "owner"]);
  });
});

describe("answer-cache lookups told to onLookup", () => {
  test("a miss, then a hit; concurrent equal requests are one miss and shared; a failed generation still counts its miss", async () => {
    const lookups: string[] = [];
    const transcripts = new FakeTranscripts();
    const writer = new FakeWriter();
    const chat = createChatService({
      transcripts,
      writer,
      answers: mapCache(),
      answerTtlMs: 60_000,
      gate: openGate,
      requestTimeoutMs: 1000,
      onLookup: (result) => lookups.push(result),
    });
    await chat.answer(request({ prompt: "first" }));
    await chat.answer(request({ prompt: "first" }));
    expect(lookups).toEqual(["miss", "hit"]);
    lookups.length = 0;
    transcripts.delayMs = 20;
    await Promise.all([
      chat.answer(request({ prompt: "second" })),
      chat.answer(request({ prompt: "second" })),
      chat.answer(request({ prompt: "second" })),
    ]);
    expect(lookups).toEqual(["miss", "shared", "shared"]);
    lookups.length = 0;
    writer.failWith = "upstream_error";
    await expect(chat.answer(request({ prompt: "third" }))).rejects.toThrow();
    expect(lookups).toEqual(["miss"]);
  });
});
