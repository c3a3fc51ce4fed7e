/** @module Tests of the chat use case with quotas: admitted before the model, per caller across shared work. */
import { describe, expect, test } from "bun:test";
import { createChatService, type GeneratedAnswer } from "../../src/domain/chat.ts";
import { createChatRequest } from "../../src/domain/chat-request.ts";
import { AppError } from "../../src/domain/errors.ts";
import type { Cache } from "../../src/domain/ports.ts";
import { FakeTranscripts, FakeWriter, noCache, openGate } from "../support/fake/ports.ts";

const request = (prompt = "summary") => createChatRequest({ url: "https://youtu.be/GJLlxj_dtq8", prompt });

function setUp(answers: Cache<GeneratedAnswer> = noCache) {
  const transcripts = new FakeTranscripts();
  const writer = new FakeWriter();
  const chat = createChatService({
    transcripts,
    writer,
    answers,
    answerTtlMs: 60_000,
    gate: openGate,
    requestTimeoutMs: 5_000,
  });
  return { chat, transcripts, writer };
}

/** A quota check that admits up to `left` minutes, and notes what it was asked. */
function quota(left: number) {
  const asked: number[] = [];
  return {
    asked,
    admit: async (minutes: number) => {
      asked.push(minutes);
      if (minutes > left) throw new AppError("quota_exceeded", `only ${left} left`);
      left -= minutes;
    },
  };
}

describe("ChatService.answer() with a quota check", () => {
  test("checks the video's minutes once the transcript is read, before the model is asked", async () => {
    const { chat, writer, transcripts } = setUp();
    const short = quota(3);
    await expect(chat.answer(request(), { admit: short.admit })).rejects.toMatchObject({ code: "quota_exceeded" });
    expect(transcripts.calls).toHaveLength(1);
    expect(writer.specs).toHaveLength(0);
    expect(short.asked).toEqual([5]);
    const enough = quota(10);
    const outcome = await chat.answer(request(), { admit: enough.admit });
    expect(enough.asked).toEqual([5]);
    expect(outcome.spent).toEqual({ inputTokens: 10, outputTokens: 5, audioSeconds: 0 });
  });

  test("a transcript denser than speech is admitted to its text's minutes, cached with its characters", async () => {
    const map = new Map<string, GeneratedAnswer>();
    const { chat, writer, transcripts } = setUp({
      get: async (k) => map.get(k),
      set: async (k, v) => void map.set(k, v),
    });
    // A 59-second video whose captions hold 120,000 characters: 120 minutes of text.
    transcripts.transcript = {
      ...transcripts.transcript,
      durationSeconds: 59,
      cues: Array.from({ length: 120 }, (_, i) => ({ start: i / 3, duration: 0.3, text: "x".repeat(1_000) })),
    };
    const short = quota(100);
    await expect(chat.answer(request(), { admit: short.admit })).rejects.toMatchObject({ code: "quota_exceeded" });
    expect(short.asked).toEqual([120]);
    expect(writer.specs).toHaveLength(0);
    const working: number[] = [];
    const enough = quota(120);
    const outcome = await chat.answer(request(), { admit: enough.admit, working: (minutes) => working.push(minutes) });
    expect(enough.asked).toEqual([120]);
    expect(working).toEqual([120]);
    // video_duration still words the length alone.
    expect(outcome.response.video_duration).toBe("59 seconds");
    expect(outcome.answer.characters).toBe(120_000);
    const hit = quota(119);
    await expect(chat.answer(request(), { admit: hit.admit })).rejects.toMatchObject({ code: "quota_exceeded" });
    expect(hit.asked).toEqual([120]);
  });

  test("speech that heard nothing: the caller whose work transcribed it is charged, then transcript_unavailable", async () => {
    const { chat, writer, transcripts } = setUp();
    transcripts.transcript = {
      ...transcripts.transcript,
      cues: [],
      durationSeconds: 120,
      speech: { audioSeconds: 120, uploads: 2, sttMs: 5 },
    };
    const charged: string[] = [];
    await expect(chat.answer(request(), { chargeFailure: () => charged.push("failure") })).rejects.toMatchObject({
      code: "transcript_unavailable",
      message: expect.stringContaining("no speech was heard"),
    });
    expect(charged).toEqual(["failure"]);
    expect(writer.specs).toHaveLength(0);
  });

  test("a cached answer is checked before it is handed over, and its work spent nothing for this caller", async () => {
    const map = new Map<string, GeneratedAnswer>();
    const { chat, writer } = setUp({ get: async (k) => map.get(k), set: async (k, v) => void map.set(k, v) });
    await chat.answer(request());
    const hit = await chat.answer(request(), { admit: quota(5).admit });
    expect(hit.cache).toBe("hit");
    expect(hit.spent).toBeUndefined();
    await expect(chat.answer(request(), { admit: quota(4).admit })).rejects.toMatchObject({ code: "quota_exceeded" });
    expect(writer.specs).toHaveLength(1);
  });

  test("work shared by two callers: the one whose quota refuses is refused, the other answered by one model call", async () => {
    for (const refusedFirst of [true, false]) {
      const { chat, writer, transcripts } = setUp();
      transcripts.delayMs = 30;
      const refused = quota(3);
      const admitted = quota(10);
      const [a, b] = refusedFirst ? [refused, admitted] : [admitted, refused];
      const results = await Promise.allSettled([
        chat.answer(request(), { admit: a.admit }),
        chat.answer(request(), { admit: b.admit }),
      ]);
      const [forRefused, forAdmitted] = refusedFirst ? results : [results[1]!, results[0]!];
      expect(forRefused.status).toBe("rejected");
      expect((forRefused as PromiseRejectedResult).reason.code).toBe("quota_exceeded");
      expect(forAdmitted.status).toBe("fulfilled");
      expect(writer.specs).toHaveLength(1);
      expect(admitted.asked).toEqual([5]);
    }
  });

  test("a joiner of another caller's work spent nothing; the caller who did the work spent its tokens", async () => {
    const { chat, transcripts } = setUp();
    transcripts.delayMs = 20;
    const [owner, joiner] = await Promise.all([chat.answer(request()), chat.answer(request())]);
    expect(owner.spent).toEqual({ inputTokens: 10, outputTokens: 5, audioSeconds: 0 });
    expect(joiner.cache).toBe("shared");
    expect(joiner.spent).toBeUndefined();
  });
});
