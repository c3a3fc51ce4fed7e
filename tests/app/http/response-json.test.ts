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

  test("an answer object whose output changed is escaped again, never served stale", () => {
    const toJson = createResponseJson();
    const answer = {};
    toJson(response("first"), answer);
    expect(toJson(response("second"), answer)).toBe(JSON.stringify(response("second")));
  });
});
