/** @module End-to-end tests of a three-hour video with a fake LLM: budgeted map-reduce and question excerpts. */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import llama3Tokenizer from "llama3-tokenizer-js";
import { estimateTokens, MESSAGE_OVERHEAD_TOKENS } from "../../src/domain/reading/tokens.ts";
import { ANSWERS, besidesSearch, isSearchCall, type LlmCall } from "../support/fake/llm.ts";
import { VIDEOS, watchUrl } from "../support/fixtures.ts";
import { captionXml, generateCues, NEEDLE } from "../support/long-transcript.ts";
import { type LlmHarness, startLlmHarness } from "./llm-harness.ts";

const THREE_HOURS = 3 * 3600;
const cues = generateCues(THREE_HOURS, { needleAt: THREE_HOURS - 90 });
const NOTES = "- [0:00] The reviewer covers one aspect of the device.\n- [0:40] And how well it holds up.";
const isPart = (call: LlmCall) => /Part \d+ of \d+ of a long video's transcript/.test(call.text);

let h: LlmHarness;
beforeAll(async () => {
  // The map-reduce mechanics on a capped call size, on a budget that does not pace them (tests/e2e/llm-free-plan.test.ts covers the free plan).
  h = await startLlmHarness({
    ANSWER_CACHE_TTL_MS: "0",
    LLM_CONCURRENCY: "3",
    LLM_INPUT_TOKEN_BUDGET: "4000",
    LLM_TOKENS_PER_MINUTE: "100000000",
    LLM_REQUESTS_PER_MINUTE: "1000000",
  });
});
afterAll(() => h?.close());
beforeEach(() => {
  h.youtube.reset();
  h.llm.reset();
  h.youtube.setCaption(VIDEOS.normal.id, captionXml(cues));
  h.llm.respondWith(besidesSearch((call) => ({ content: isPart(call) ? NOTES : ANSWERS.en!, delayMs: 100 })));
});

describe("POST /chat on a three-hour video (fake LLM)", () => {
  test("a summary is split so that no call exceeds the budget, mapped concurrently, then combined", async () => {
    const response = await h.chat({ url: watchUrl("normal") });
    expect(response.status).toBe(200);
    expect((await response.json()).video_duration).toBe("5 minutes");
    const parts = h.llm.calls.filter(isPart);
    const count = Number(/Part \d+ of (\d+)/.exec(parts[0]!.text)![1]);
    expect(parts).toHaveLength(count);
    expect(count).toBeGreaterThanOrEqual(9);
    expect(h.llm.calls).toHaveLength(count + 1);
    expect(h.llm.calls.at(-1)!.text).toContain("<notes>");
    expect(h.llm.peakConcurrency).toBe(3);
    for (const call of h.llm.calls) {
      const estimated = call.messages.reduce((sum, m) => sum + estimateTokens(m.content) + MESSAGE_OVERHEAD_TOKENS, 0);
      const real = call.messages.reduce(
        (sum, m) => sum + llama3Tokenizer.encode(m.content, { bos: false, eos: false }).length + 5,
        0,
      );
      expect(estimated).toBeLessThanOrEqual(4000);
      // Groq's free tier refuses a request whose prompt plus max_tokens is over 6,000 tokens.
      expect(real + call.maxTokens!).toBeLessThanOrEqual(6000);
    }
  });

  test("every sentence of the transcript reaches exactly one map call", async () => {
    await h.chat({ url: watchUrl("normal") });
    const sent = h.llm.calls.filter(isPart).map((call) =>
      /<transcript>\n([\s\S]*)\n<\/transcript>/.exec(call.text)![1]!
    );
    const sentences = sent.join("\n").match(/[.!?](?=\s|$)/g) ?? [];
    expect(sentences).toHaveLength(cues.length);
    expect(sent.join("\n")).toContain(NEEDLE);
  });

  test("a question whose answer sits in the last minutes reaches the model in one call with that passage", async () => {
    h.llm.respondWith((call) => ({
      content: isSearchCall(call)
        ? "secret ingredient, recipe, spice, SEARCH-ONLY"
        : "Smoked paprika from Extremadura [2:58:32].",
    }));
    const response = await h.chat({ url: watchUrl("normal"), prompt: "What is the secret ingredient of the recipe?" });
    expect(response.status).toBe(200);
    // The search call first (the model's words for the transcript's), then the answer's one call.
    expect(h.llm.calls).toHaveLength(2);
    expect(isSearchCall(h.llm.calls[0]!)).toBe(true);
    expect(h.llm.calls[1]!.text).toContain(NEEDLE);
    expect(h.llm.calls[1]!.text).not.toContain("SEARCH-ONLY");
    expect((await response.json()).output).toBe("Smoked paprika from Extremadura [2:58:32].");
  });

  test("a question no passage matches falls back to map-reduce over the whole video", async () => {
    await h.chat({ url: watchUrl("normal"), prompt: "Quantum chromodynamics?" });
    const parts = h.llm.calls.filter(isPart);
    expect(parts.length).toBeGreaterThanOrEqual(9);
    expect(parts[0]!.text).toContain("<request>Quantum chromodynamics?</request>");
  });
});
