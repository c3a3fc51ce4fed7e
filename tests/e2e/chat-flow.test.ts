/** @module End-to-end tests of a chat request's main flow: response fields, what the LLM gets, secrets, bad URLs. */
import { describe, expect, test } from "bun:test";
import { servicePerFile } from "../support/service/per-file.ts";
import { VIDEOS, watchUrl } from "../support/fixtures.ts";
import { postChat, targetFromEnv } from "../support/service/process.ts";

const KEY = "e2e-key-0123456789";
const GROQ_KEY = "gsk_fake_secret_for_tests";

const rig = servicePerFile(({ youtube, llm }) => ({
  API_KEYS: KEY,
  YOUTUBE_BASE_URL: youtube.origin,
  GROQ_API_KEY: GROQ_KEY,
  GROQ_BASE_URL: llm.baseUrl,
  GROQ_MODEL: "fake-model",
  // The subject here is not the provider's limits: a budget that never paces (the fake LLM states none).
  LLM_TOKENS_PER_MINUTE: "100000000",
  LLM_REQUESTS_PER_MINUTE: "1000000",
}), { resetEach: true });

describe(`POST /chat end to end (${targetFromEnv()})`, () => {
  test("a body holding only url gets a summary with every response field and the video's length", async () => {
    const response = await postChat(rig.service.url, { url: watchUrl("normal") }, { "x-api-key": KEY });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("x-request-id")).toBeTruthy();
    const body = await response.json();
    expect(body).toEqual({
      url: watchUrl("normal"),
      model: "chat-1.0",
      prompt: "summary",
      language: "en",
      output_format: "text",
      output: expect.stringContaining("Surface Go"),
      video_duration: "5 minutes",
    });
  });

  test("the LLM receives the transcript, the cut prompt and the language and format instructions", async () => {
    const prompt = "Q".repeat(499) + "😀" + "tail that must be cut";
    const response = await postChat(rig.service.url, {
      url: `https://youtu.be/${VIDEOS.normal.id}?t=42`,
      prompt,
      language: "es",
      output_format: "markdown",
    }, { "x-api-key": KEY });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.prompt).toBe("Q".repeat(499) + "😀");
    expect(body.language).toBe("es");
    expect(rig.llm.calls.length).toBeGreaterThanOrEqual(1);
    const sent = rig.llm.calls.map((c) => c.text).join("\n");
    expect(sent).toContain("this is not the original transcript");
    expect(sent).toContain("Q".repeat(499) + "😀");
    expect(sent).not.toContain("tail that must be cut");
    expect(sent).toContain("Spanish");
    expect(sent).toContain("Markdown");
    expect(rig.llm.calls[0]!.model).toBe("fake-model");
    expect(rig.llm.calls[0]!.authorization).toBe(`Bearer ${GROQ_KEY}`);
  });

  test("the Groq key and the caller's key never appear in the service's output", async () => {
    await postChat(rig.service.url, { url: watchUrl("normal"), prompt: "anything new?" }, { "x-api-key": KEY });
    expect(rig.service.output()).not.toContain(GROQ_KEY);
    expect(rig.service.output()).not.toContain(KEY);
  });

  test("an invalid URL is refused with 400 and causes no request to YouTube", async () => {
    const response = await postChat(rig.service.url, {
      url: "https://www.youtube.com.evil.example/watch?v=GJLlxj_dtq8",
    }, {
      "x-api-key": KEY,
    });
    expect(response.status).toBe(400);
    expect((await response.json()).error.code).toBe("invalid_request");
    expect(rig.youtube.seen.length).toBe(0);
  });
});
