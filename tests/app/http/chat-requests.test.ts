/** @module Tests of chat-requests.ts: chat requests from body text, remembered by that text, failures never. */
import { describe, expect, test } from "bun:test";
import { createChatRequests } from "../../../src/app/http/chat-requests.ts";
import { thrownFailure as failure } from "../../support/failure.ts";

const body = (fields: Record<string, unknown>) => JSON.stringify(fields);

describe("createChatRequests", () => {
  test("applies the rules, and the same text gives the same frozen request", () => {
    const requestOf = createChatRequests();
    const text = body({ url: "https://youtu.be/GJLlxj_dtq8", prompt: "Why?", language: "es" });
    const request = requestOf(text);
    expect(request).toEqual({
      url: "https://youtu.be/GJLlxj_dtq8",
      videoId: "GJLlxj_dtq8",
      model: "chat-1.0",
      prompt: "Why?",
      isSummary: false,
      language: "es",
      outputFormat: "text",
      answerKey: 'v2:["GJLlxj_dtq8","es","text","Why?"]',
    });
    expect(Object.isFrozen(request)).toBe(true);
    expect(requestOf(text)).toBe(request);
    expect(requestOf(body({ url: "https://youtu.be/GJLlxj_dtq8", prompt: "Why?", language: "es" }))).toBe(request);
  });

  test("a failure throws its invalid_request every time, with the message of the first", () => {
    const requestOf = createChatRequests();
    for (
      const [text, message] of [
        ["", "The request body is empty"],
        ["{", "The request body is not valid JSON"],
        ["[1]", "The request body must be a JSON object; got an array"],
        [body({ url: "https://example.com/watch?v=GJLlxj_dtq8" }), 'Field "url" must be a YouTube video URL'],
        [body({ url: "https://youtu.be/GJLlxj_dtq8", langauge: "es" }), 'Unknown field "langauge"'],
      ] as const
    ) {
      for (let time = 0; time < 2; time++) {
        const error = failure(() => requestOf(text));
        expect(error.code).toBe("invalid_request");
        expect(error.message).toStartWith(message);
      }
    }
  });

  test("a failed body nested more than 32 levels is refused as such, without describing its fields", () => {
    let deep: unknown = "x";
    for (let level = 0; level < 5_000; level++) deep = [deep];
    const error = failure(() => createChatRequests()(body({ url: deep })));
    expect(error.message).toContain("nested more than 32 levels");
  });

  test("remembers at most maxEntries texts, oldest dropped first, and never a text over maxTextLength", () => {
    const requestOf = createChatRequests({ maxEntries: 2, maxTextLength: 60 });
    const texts = ["a", "b", "c"].map((prompt) => body({ url: "https://youtu.be/GJLlxj_dtq8", prompt }));
    const first = texts.map((text) => requestOf(text));
    expect(requestOf(texts[2]!)).toBe(first[2]!);
    expect(requestOf(texts[1]!)).toBe(first[1]!);
    expect(requestOf(texts[0]!)).not.toBe(first[0]!); // dropped when the third came
    const long = body({
      url: "https://youtu.be/GJLlxj_dtq8",
      prompt: "a longer question than sixty characters in all",
    });
    expect(requestOf(long)).not.toBe(requestOf(long));
    expect(requestOf(long)).toEqual(requestOf(long));
  });
});
