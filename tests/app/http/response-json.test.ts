/** @module Tests of response-json.ts: the cached answer's JSON body, its output escaped once. */
import { describe, expect, test } from "bun:test";
import type { ChatResponse } from "../../../src/domain/chat.ts";
import { createResponseJson } from "../../../src/app/http/response-json.ts";

const response = (output: string, prompt = "summary"): ChatResponse => ({
  url: 'https://youtu.be/x"y',
  model: "chat-1.0",
  prompt,
  language: "en",
  output_format: "text",
  output,
  video_duration: "5 minutes",
});

describe("createResponseJson", () => {
  test("writes exactly what JSON.stringify writes, for outputs and prompts that need escaping", () => {
    const toJson = createResponseJson();
    for (
      const text of ["plain", 'quote " backslash \\ newline \n tab \t', "\u2028 emoji 😀 lone \ud800", "</script>"]
    ) {
      const answer = {};
      expect(toJson(response(text, text), answer)).toBe(JSON.stringify(response(text, text)));
      expect(toJson(response(text, "again"), answer)).toBe(JSON.stringify(response(text, "again")));
    }
  });

  test("writes every field of the response, one it does not know of included, in its order", () => {
    const toJson = createResponseJson();
    const grown = {
      ...response("out"),
      sources: [{ start: 1.5 }],
      note: undefined,
      video_duration: "1 min",
    } as ChatResponse;
    expect(toJson(grown, {}, {})).toBe(JSON.stringify(grown));
  });

  test("an answer object whose output changed is escaped again, never served stale", () => {
    const toJson = createResponseJson();
    const answer = {};
    toJson(response("first"), answer);
    expect(toJson(response("second"), answer)).toBe(JSON.stringify(response("second")));
  });
});

describe("createResponseJson with the asking request", () => {
  test("the same request object asking for the same answer gets the very text made the first time", () => {
    const toJson = createResponseJson();
    const answer = {};
    const asked = {};
    const first = toJson(response("out", "why?"), answer, asked);
    expect(first).toBe(JSON.stringify(response("out", "why?")));
    expect(toJson(response("out", "why?"), answer, asked)).toBe(first);
  });

  test("another request object, or a changed output, is written afresh with its own fields", () => {
    const toJson = createResponseJson();
    const answer = {};
    toJson(response("out", "first prompt"), answer, {});
    expect(toJson(response("out", "second prompt"), answer, {})).toBe(JSON.stringify(response("out", "second prompt")));
    const asked = {};
    toJson(response("out", "third"), answer, asked);
    expect(toJson(response("changed", "third"), answer, asked)).toBe(JSON.stringify(response("changed", "third")));
  });
});
