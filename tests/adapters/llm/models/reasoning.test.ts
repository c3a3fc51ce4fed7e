/** @module Tests of reasoning.ts: request fields per model, room for reasoning learnt, <think> blocks removed. */
import { describe, expect, test } from "bun:test";
import {
  createReasoningRoom,
  createThinkFilter,
  reasoningParams,
  withoutThinking,
} from "../../../../src/adapters/llm/models/reasoning.ts";
import { reasoningOf } from "../../../../src/adapters/llm/models/model-table.ts";

describe("reasoningParams()", () => {
  test("gpt-oss on Groq: the effort, and its reasoning left out of the answer", () => {
    expect(reasoningParams(reasoningOf("openai/gpt-oss-20b"), "low", true)).toEqual({
      reasoning_effort: "low",
      include_reasoning: false,
    });
  });

  test("qwen3 on Groq: instruct mode for a low effort, its <think> hidden", () => {
    expect(reasoningParams(reasoningOf("qwen/qwen3.8-27b"), "low", true)).toEqual({
      reasoning_effort: "none",
      reasoning_format: "hidden",
    });
  });

  test("elsewhere only the effort is sent (other servers know neither Groq field); a plain model gets nothing", () => {
    expect(reasoningParams(reasoningOf("gpt-oss:20b"), "high", false)).toEqual({ reasoning_effort: "high" });
    expect(reasoningParams(undefined, "low", true)).toEqual({});
  });
});

describe("createReasoningRoom()", () => {
  test("starts from the effort's usual spend for a reasoning model, then keeps 1.5 times the most of the last calls", () => {
    const room = createReasoningRoom(true, "low");
    expect(room.tokens).toBe(512);
    room.observe(100);
    expect(room.tokens).toBe(150);
    room.observe(40);
    expect(room.tokens).toBe(150);
    room.observe(10);
    expect(createReasoningRoom(true, "high").tokens).toBe(8_192);
  });

  test("a model not known to reason has none, until an answer shows reasoning tokens", () => {
    const room = createReasoningRoom(false, "low");
    expect(room.tokens).toBe(0);
    room.observe(0);
    expect(room.tokens).toBe(0);
    room.observe(400);
    expect(room.tokens).toBe(600);
  });

  test("after a call cut short, the next gets at least twice what was sent", () => {
    const room = createReasoningRoom(true, "low");
    expect(room.after({ reasoningTokens: 1_512, maxTokens: 1_512 })).toBeGreaterThanOrEqual(3_024);
  });
});

describe("withoutThinking() and the streamed think filter", () => {
  test("drop closed and unclosed <think> blocks, and the space after them", () => {
    expect(withoutThinking("<think>\nhmm\n</think>\n\nThe answer.")).toBe("The answer.");
    expect(withoutThinking("The answer.")).toBe("The answer.");
    expect(withoutThinking("<think>never closed")).toBe("");
  });

  test("the filter gives the same text however the pieces split the tags", () => {
    const text = "<think>\nreasoning <b> here\n</think>\n\nThe reviewer likes <it>. [0:01]";
    for (const size of [1, 2, 3, 5, 7, 64]) {
      const filter = createThinkFilter();
      let out = "";
      for (let i = 0; i < text.length; i += size) out += filter.push(text.slice(i, i + size));
      out += filter.end();
      expect(out).toBe("The reviewer likes <it>. [0:01]");
    }
  });

  test("text that only looks like the start of a tag is given back at the end", () => {
    const filter = createThinkFilter();
    expect(filter.push("a <thi")).toBe("a ");
    expect(filter.end()).toBe("<thi");
  });
});
