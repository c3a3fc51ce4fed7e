/** @module The tool's definition, the mapping of arguments to a ChatRequest, and of outcomes to tool results. */
import { describe, expect, test } from "bun:test";
import { ChatBody } from "../../../src/app/contract/chat-schema.ts";
import { answerResult, CHAT_TOOL, errorResult, toChatRequest } from "../../../src/app/mcp/chat-tool.ts";
import { LANGUAGES } from "../../../src/domain/chat-request.ts";
import { AppError } from "../../../src/domain/errors.ts";
import { appWithFakes, TEST_KEY } from "../../support/fake/ports.ts";
import { thrownFailure } from "../../support/failure.ts";

const URL = "https://www.youtube.com/watch?v=GJLlxj_dtq8";

/** The message POST /chat answers a body with. */
async function httpMessage(body: unknown): Promise<{ status: number; message: string }> {
  const { app } = appWithFakes();
  const response = await app.fetch(
    new Request("http://localhost/chat", {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": TEST_KEY },
      body: JSON.stringify(body),
    }),
  );
  return { status: response.status, message: (await response.json()).error.message };
}

const refusal = (args: unknown): AppError => thrownFailure(() => toChatRequest(args));

describe("the chat_about_video tool's definition", () => {
  test("its input schema is POST /chat's body schema as plain JSON: url required, the answer languages, two formats", () => {
    const schema = CHAT_TOOL.inputSchema as unknown as {
      required: string[];
      properties: Record<string, { enum?: string[]; default?: string }>;
      additionalProperties: boolean;
    };
    expect(schema).toEqual(JSON.parse(JSON.stringify(ChatBody)));
    expect(schema.required).toEqual(["url"]);
    expect(schema.additionalProperties).toBe(false);
    expect(schema.properties.language!.enum).toEqual([...LANGUAGES]);
    expect(schema.properties.language!.default).toBe("en");
    expect(schema.properties.output_format!.enum).toEqual(["text", "markdown"]);
    expect(schema.properties.model!.enum).toEqual(["chat-1.0"]);
    expect(Object.getOwnPropertySymbols(schema)).toHaveLength(0);
  });

  test("its output schema requires the seven fields of the response", () => {
    expect((CHAT_TOOL.outputSchema as unknown as { required: string[] }).required.sort()).toEqual([
      "language",
      "model",
      "output",
      "output_format",
      "prompt",
      "url",
      "video_duration",
    ]);
  });

  test("its description tells an agent when to use it", () => {
    expect(CHAT_TOOL.description).toContain("YouTube video");
    expect(CHAT_TOOL.description).toContain("summary");
    expect(CHAT_TOOL.description).toContain("en, hi, es, pt, ru");
  });
});

describe("toChatRequest", () => {
  test("applies POST /chat's defaults", () => {
    expect(toChatRequest({ url: URL })).toEqual({
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

  test("maps every field, and cuts a long prompt to 500 code points", () => {
    const request = toChatRequest({
      url: "https://youtu.be/GJLlxj_dtq8?t=4",
      model: "chat-1.0",
      prompt: "¿".repeat(600),
      language: "es",
      output_format: "markdown",
    });
    expect(request).toMatchObject({
      url: "https://youtu.be/GJLlxj_dtq8?t=4",
      videoId: "GJLlxj_dtq8",
      isSummary: false,
      language: "es",
      outputFormat: "markdown",
    });
    expect([...request.prompt]).toHaveLength(500);
  });

  test.each([
    ["no arguments", undefined],
    ["an unknown field", { url: URL, langauge: "es" }],
    ["a language in upper case", { url: URL, language: "ES" }],
    ["a number for a string", { url: URL, prompt: 1 }],
    ["a URL of another host", { url: "https://youtube.com.evil.example/watch?v=GJLlxj_dtq8" }],
    ["an array", [URL]],
  ])("refuses %s with the wording of the HTTP 400", async (_, args) => {
    const error = refusal(args);
    expect(error.code).toBe("invalid_request");
    const http = await httpMessage(args ?? {});
    expect(http.status).toBe(400);
    expect(error.message).toBe(http.message);
  });
});

describe("results", () => {
  test("an answer is its output as text, and the seven fields as structured content", () => {
    const response = {
      url: URL,
      model: "chat-1.0",
      prompt: "summary",
      language: "es" as const,
      output_format: "text" as const,
      output: "Hola [0:01].",
      video_duration: "5 minutes",
    };
    expect(answerResult(response)).toEqual({
      content: [{ type: "text", text: "Hola [0:01]." }],
      structuredContent: response,
    });
  });

  test("a failure starts with its code, says what to do, and gives the retry time", () => {
    const result = errorResult(
      new AppError("upstream_blocked", "YouTube refused this server", { retryAfterSeconds: 42 }),
    );
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(result.content[0]!.text).toBe("upstream_blocked: YouTube refused this server. Retry after 42 seconds.");
  });

  test("the retry time is whole seconds, rounded up as Retry-After is", () => {
    expect(errorResult(new AppError("rate_limited", "Over the limit", { retryAfterSeconds: 29.2 })).content[0]!.text)
      .toEndWith("Retry after 30 seconds.");
    expect(errorResult(new AppError("overloaded", "Busy", { retryAfterSeconds: 0.4 })).content[0]!.text).toEndWith(
      "Retry after 1 second.",
    );
  });

  test("a video without captions names transcript_unavailable and tells the agent to ask for another video", () => {
    const text = errorResult(
      new AppError("transcript_unavailable", "Video x has no captions, so there is no transcript to answer from"),
    ).content[0]!.text;
    expect(text).toStartWith("transcript_unavailable: Video x has no captions");
    expect(text).toContain("ask the user for another video");
  });

  test("an unexpected error is internal_error with nothing of it in the text", () => {
    const text = errorResult(new TypeError("secret internal detail at /srv/app.ts:12")).content[0]!.text;
    expect(text).toStartWith("internal_error: ");
    expect(text).not.toContain("secret");
    expect(text).not.toContain("/srv");
  });
});
