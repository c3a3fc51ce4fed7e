/** @module Tests of the planner's reading by intent: whole-video requests read as a summary, details from excerpts. */
import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { createOpenAiCompatibleAnswerWriter } from "../../../../src/adapters/llm/openai-compatible-answer-writer.ts";
import { ANSWERS, isSearchCall, type LlmCall, searchQuestion, startFakeLlm } from "../../../support/fake/llm.ts";
import { generateCues, NEEDLE } from "../../../support/long-transcript.ts";
import { short, writerOptions, writerSpec } from "../writer-fixtures.ts";
import { createGroqCompleter } from "../../../../src/adapters/llm/calls/groq-completer.ts";
import { createRun } from "../../../../src/adapters/llm/calls/run.ts";
import { type Reservation, StalePlanError } from "../../../../src/adapters/llm/budget/reservation.ts";
import { draftAnswer } from "../../../../src/adapters/llm/planning/draft.ts";
import type { Drafting } from "../../../../src/adapters/llm/planning/types.ts";
import {
  answerAsk,
  combineAsk,
  NOTES_MAX_TOKENS,
  promptContext,
} from "../../../../src/adapters/llm/planning/prompts.ts";
import { promptTokens } from "../../../../src/adapters/llm/calls/chat-message.ts";
import { isAppError } from "../../../../src/domain/errors.ts";

const llm = startFakeLlm();
afterAll(() => llm.close());
beforeEach(() => llm.reset());

const isPart = (call: LlmCall) => /Part \d+ of \d+ of a long video's transcript/.test(call.text);
/** Notes for a map call, the question's own words for a search call (a model with none better), else an answer. */
const replies = (notes: string) => (call: LlmCall) => ({
  content: isSearchCall(call) ? searchQuestion(call) : isPart(call) ? notes : ANSWERS.en!,
});
const hour = { ...short, cues: generateCues(3600, { needleAt: 1800 }) };
const FIVE = "Give me the key points in five bullet points";

/** Transcript lines that reached the model, by their timestamps' seconds. */
function secondsRead(calls: readonly LlmCall[]): number[] {
  return calls.flatMap((call) =>
    [...call.text.matchAll(/<transcript>\n([\s\S]*?)\n<\/transcript>/g)].flatMap((block) =>
      [...block[1]!.matchAll(/^\[(\d+):(\d\d)(?::(\d\d))?\]/gm)].map((m) =>
        m[3] === undefined ? Number(m[1]) * 60 + Number(m[2]) : Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3])
      )
    )
  );
}

describe("draftAnswer() by intent", () => {
  test("a whole-video request on a long video is read as a summary: every part, the user's words in every call", async () => {
    llm.respondWith((call) => ({ content: isPart(call) ? "- [0:00] A note." : ANSWERS.en! }));
    const answer = await createOpenAiCompatibleAnswerWriter(writerOptions(llm.baseUrl)).write(
      writerSpec({ transcript: hour, prompt: FIVE, intent: "whole" }),
    );
    expect(answer.usage).toMatchObject({ intent: "whole", plan: "map-reduce", coverage: 1 });
    const parts = llm.calls.filter(isPart);
    expect(parts.length).toBeGreaterThan(2);
    const sentences = parts.flatMap((c) => c.text.match(/[.!?](?=\s|$)/gm) ?? []);
    expect(sentences.length).toBeGreaterThanOrEqual(hour.cues.length);
    for (const part of parts) {
      expect(part.text).toContain(`<request>${FIVE}</request>`);
      expect(part.text).toContain("main points");
      expect(part.text).not.toContain("reply exactly NONE");
    }
    const final = llm.calls.at(-1)!;
    expect(final.text).toContain("<notes>");
    expect(final.text).toContain(`<request>${FIVE}</request>`);
    expect(final.text).toContain("about the whole video");
  });

  test("the literal summary keeps its own words, and a detail's notes may say NONE", async () => {
    llm.respondWith((call) => ({ content: isPart(call) ? "NONE" : ANSWERS.en! }));
    const writer = createOpenAiCompatibleAnswerWriter(writerOptions(llm.baseUrl));
    await writer.write(writerSpec({ transcript: hour, intent: "summary" }));
    expect(llm.calls.at(-1)!.text).toContain("Summarise the video from them: its main points in order, concisely.");
    expect(llm.calls.some((c) => c.text.includes("<request>"))).toBe(false);
    llm.reset();
    llm.respondWith(replies("NONE"));
    await writer.write(writerSpec({ transcript: hour, prompt: "Quantum chromodynamics?", intent: "detail" }));
    expect(llm.calls.filter(isPart)[0]!.text).toContain("reply exactly NONE");
  });

  test("the same words are read from their passages as a detail, and over the whole video as a whole request", async () => {
    const prompt = "What is the secret ingredient of the recipe?";
    llm.respondWith(replies("- [0:00] A note."));
    const writer = createOpenAiCompatibleAnswerWriter(writerOptions(llm.baseUrl));
    const detail = await writer.write(writerSpec({ transcript: hour, prompt, intent: "detail" }));
    expect(detail.usage).toMatchObject({ intent: "detail", plan: "excerpts+terms" });
    expect(detail.usage!.coverage!).toBeLessThan(0.1);
    expect(llm.calls).toHaveLength(2);
    expect(isSearchCall(llm.calls[0]!)).toBe(true);
    expect(llm.calls[1]!.text).toContain(NEEDLE);
    llm.reset();
    llm.respondWith((call) => ({ content: isPart(call) ? "- [0:00] A note." : ANSWERS.en! }));
    const whole = await writer.write(writerSpec({ transcript: hour, prompt, intent: "whole" }));
    expect(whole.usage).toMatchObject({ intent: "whole", plan: "map-reduce", coverage: 1 });
    const read = secondsRead(llm.calls.filter(isPart));
    expect(read).toContain(0);
    for (let tenth = 0; tenth < 10; tenth++) expect(read.some((s) => Math.floor(s / 360) === tenth)).toBe(true);
  });
});

describe("draftAnswer() when its plan is found stale", () => {
  /** A reservation that admits at once, but finds the plan stale (once) when a part asks its turn after the first answer. */
  const staleAfterFirstCall = (): Reservation => {
    let found = false;
    return {
      deadline: Date.now() + 60_000,
      stale: false,
      reduced: true,
      waitedMs: 0,
      available: () => Promise.reject(new Error("not used by the draft")),
      hold: () => {},
      plan: () => Promise.reject(new Error("not used by the draft")),
      admit: async (_tokens, _signal, _latestStart, part) => {
        if (found || !part || llm.calls.length === 0) return;
        found = true;
        throw new StalePlanError();
      },
      settle: async () => {},
      unsent: async () => {},
      close: () => {},
    };
  };

  /** A summary of the hour, drafted with a run on the fake LLM that finds its plan stale after the first part. */
  const staleSummary = () => {
    const spec = writerSpec({ transcript: hour, intent: "summary" });
    const completer = createGroqCompleter({
      apiKey: "gsk_unit",
      baseUrl: llm.baseUrl,
      model: "fake-model",
      timeoutMs: 2000,
      maxRetries: 0,
    });
    const run = createRun({ completer, concurrency: 1, retryBudgetMs: 1000, reservation: staleAfterFirstCall() });
    const job: Drafting = { run, spec, prompts: promptContext(spec) };
    let plans = 0;
    /** Drafts with `tokens` for the plan made again (the first plan has room for the whole video). */
    const draft = (tokens: number) =>
      draftAnswer(job, {
        output: OUTPUT,
        plan: (choose) =>
          Promise.resolve(
            choose({
              maxCallTokens: 4000,
              tokens: plans++ === 0 ? 1_000_000 : tokens,
              tokensPerWindow: 8000,
              windowMs: 60_000,
            })
              .value,
          ),
      });
    return { job, draft, plans: () => plans };
  };
  const OUTPUT = 1000;

  test("when the rest of the video no longer fits before the deadline, it answers from the notes it read", async () => {
    llm.respondWith((call) => ({ content: isPart(call) ? "- [0:00] The first part's note." : ANSWERS.en! }));
    const { job, draft, plans } = staleSummary();
    // Enough for the combining call over one part's notes, not for any more of the transcript.
    const tokens = promptTokens(combineAsk(job, [], false)) + NOTES_MAX_TOKENS + OUTPUT + 50;
    expect(tokens).toBeLessThan(promptTokens(answerAsk(job, "", "sampled")) + 400 + NOTES_MAX_TOKENS + OUTPUT);
    const drafted = await draft(tokens);
    expect(plans()).toBe(2);
    expect(drafted.plan).toBe("read-so-far+replanned");
    expect(drafted.coverage).toBeGreaterThan(0);
    expect(drafted.coverage).toBeLessThan(0.5);
    expect(llm.calls.filter(isPart)).toHaveLength(1);
    const final = llm.calls.at(-1)!;
    expect(final.text).toContain("<notes>");
    expect(final.text).toContain("The first part's note.");
    expect(drafted.text).toBe(ANSWERS.en!);
  });

  test("when not even the notes it read can be combined in time, it is refused: overloaded", async () => {
    llm.respondWith((call) => ({ content: isPart(call) ? "- [0:00] A note." : ANSWERS.en! }));
    const { draft } = staleSummary();
    expect(await draft(500).catch((error) => (isAppError(error) ? error.code : error))).toBe("overloaded");
    expect(llm.calls.filter(isPart)).toHaveLength(1);
  });
});
