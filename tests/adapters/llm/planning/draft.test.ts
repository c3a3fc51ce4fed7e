/** @module Tests of the planner's reading by intent: whole-video requests read as a summary, details from excerpts. */
import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { createGroqAnswerWriter } from "../../../../src/adapters/llm/groq-answer-writer.ts";
import { ANSWERS, type LlmCall, startFakeLlm } from "../../../support/fake-llm.ts";
import { generateCues, NEEDLE } from "../../../support/long-transcript.ts";
import { short, writerOptions, writerSpec } from "../writer-fixtures.ts";

const llm = startFakeLlm();
afterAll(() => llm.close());
beforeEach(() => llm.reset());

const isPart = (call: LlmCall) => /Part \d+ of \d+ of a long video's transcript/.test(call.text);
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
    const answer = await createGroqAnswerWriter(writerOptions(llm.baseUrl)).write(
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
    const writer = createGroqAnswerWriter(writerOptions(llm.baseUrl));
    await writer.write(writerSpec({ transcript: hour, intent: "summary" }));
    expect(llm.calls.at(-1)!.text).toContain("Summarise the video from them: its main points in order, concisely.");
    expect(llm.calls.some((c) => c.text.includes("<request>"))).toBe(false);
    llm.reset();
    llm.respondWith((call) => ({ content: isPart(call) ? "NONE" : ANSWERS.en! }));
    await writer.write(writerSpec({ transcript: hour, prompt: "Quantum chromodynamics?", intent: "detail" }));
    expect(llm.calls.filter(isPart)[0]!.text).toContain("reply exactly NONE");
  });

  test("the same words are read from their passages as a detail, and over the whole video as a whole request", async () => {
    const prompt = "What is the secret ingredient of the recipe?";
    llm.respondWith((call) => ({ content: isPart(call) ? "- [0:00] A note." : ANSWERS.en! }));
    const writer = createGroqAnswerWriter(writerOptions(llm.baseUrl));
    const detail = await writer.write(writerSpec({ transcript: hour, prompt, intent: "detail" }));
    expect(detail.usage).toMatchObject({ intent: "detail", plan: "excerpts" });
    expect(detail.usage!.coverage!).toBeLessThan(0.1);
    expect(llm.calls).toHaveLength(1);
    expect(llm.calls[0]!.text).toContain(NEEDLE);
    llm.reset();
    llm.respondWith((call) => ({ content: isPart(call) ? "- [0:00] A note." : ANSWERS.en! }));
    const whole = await writer.write(writerSpec({ transcript: hour, prompt, intent: "whole" }));
    expect(whole.usage).toMatchObject({ intent: "whole", plan: "map-reduce", coverage: 1 });
    const read = secondsRead(llm.calls.filter(isPart));
    expect(read).toContain(0);
    for (let tenth = 0; tenth < 10; tenth++) expect(read.some((s) => Math.floor(s / 360) === tenth)).toBe(true);
  });
});
