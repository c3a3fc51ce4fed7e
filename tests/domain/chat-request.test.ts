/** @module Tests of the chat request: defaults, URL checks and the 500-code-point prompt cut. */
import { describe, expect, test } from "bun:test";
import { createChatRequest, isSummaryPrompt, normalizePrompt } from "../../src/domain/chat-request.ts";
import { AppError } from "../../src/domain/errors.ts";

const URL = "https://youtu.be/GJLlxj_dtq8?t=42";

describe("createChatRequest()", () => {
  test("applies every default to a body holding only url", () => {
    expect(createChatRequest({ url: URL })).toEqual({
      url: URL,
      videoId: "GJLlxj_dtq8",
      model: "chat-1.0",
      prompt: "summary",
      isSummary: true,
      language: "en",
      outputFormat: "text",
      answerKey: 'v2:["GJLlxj_dtq8","en","text","summary"]',
    });
  });

  test("gives requests that must get the same answer one answer key, and others another", () => {
    const keyOf = (input: Parameters<typeof createChatRequest>[0]) => createChatRequest(input).answerKey;
    expect(keyOf({ url: URL, prompt: " Summary " })).toBe(keyOf({ url: "https://youtu.be/GJLlxj_dtq8" }));
    expect(keyOf({ url: URL, prompt: "Why?" })).toBe(
      keyOf({ url: "https://www.youtube.com/watch?v=GJLlxj_dtq8", prompt: "Why?" }),
    );
    expect(keyOf({ url: URL, prompt: "Why?" })).not.toBe(keyOf({ url: URL, prompt: "Why?", language: "es" }));
    expect(keyOf({ url: URL })).not.toBe(keyOf({ url: URL, output_format: "markdown" }));
  });

  test("keeps the URL exactly as sent", () => {
    expect(createChatRequest({ url: URL }).url).toBe(URL);
  });

  test("refuses a URL that is not a YouTube video with invalid_request quoting it", () => {
    const attempt = () => createChatRequest({ url: "https://vimeo.com/123" });
    expect(attempt).toThrow(AppError);
    expect(attempt).toThrow(/vimeo\.com\/123/);
  });
});

describe("normalizePrompt()", () => {
  test("keeps a prompt of exactly 500 code points", () => {
    const prompt = "a".repeat(500);
    expect(normalizePrompt(prompt)).toBe(prompt);
  });

  test("cuts at 500 code points", () => {
    expect(normalizePrompt("a".repeat(501))).toBe("a".repeat(500));
  });

  test("keeps an emoji that is the 500th code point whole and drops the 501st", () => {
    const prompt = "a".repeat(499) + "😀" + "😀";
    const cut = normalizePrompt(prompt);
    expect(cut).toBe("a".repeat(499) + "😀");
    expect(Array.from(cut).length).toBe(500);
  });

  test("never splits a surrogate pair when the 501st character is an emoji", () => {
    const cut = normalizePrompt("a".repeat(500) + "😀");
    expect(cut).toBe("a".repeat(500));
    expect(/[\uD800-\uDBFF]$/.test(cut)).toBe(false);
  });

  test("counts emoji as one character each, not two UTF-16 units", () => {
    const prompt = "😀".repeat(500);
    expect(normalizePrompt(prompt)).toBe(prompt);
    expect(normalizePrompt("😀".repeat(501))).toBe("😀".repeat(500));
  });

  test.each([undefined, "", "   ", "\n\t"])("treats %p as summary", (prompt) => {
    expect(normalizePrompt(prompt)).toBe("summary");
  });
});

describe("isSummaryPrompt()", () => {
  test.each(["summary", "Summary", "  SUMMARY  "])("%p asks for a summary", (prompt) => {
    expect(isSummaryPrompt(prompt)).toBe(true);
  });

  test.each(["summary please", "summarise", "what is this about?"])("%p is a question", (prompt) => {
    expect(isSummaryPrompt(prompt)).toBe(false);
  });
});
