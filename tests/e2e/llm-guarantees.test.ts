/** @module End-to-end tests of the answer's language, format and citation promises with a fake LLM. */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { ANSWERS } from "../support/fake/llm.ts";
import { watchUrl } from "../support/fixtures.ts";
import { requestLogLines } from "../support/request-log-lines.ts";
import { GROQ_KEY, type LlmHarness, startLlmHarness } from "./llm-harness.ts";

let h: LlmHarness;
beforeAll(async () => {
  h = await startLlmHarness({ ANSWER_CACHE_TTL_MS: "0" });
});
afterAll(() => h?.close());
beforeEach(() => {
  h.youtube.reset();
  h.llm.reset();
});

describe("POST /chat keeps the language and format promises (fake LLM)", () => {
  test("a model answering in the wrong language is asked once to rewrite, and the response is in the requested language", async () => {
    h.llm.respondWith((_, index) => ({ content: index === 0 ? ANSWERS.en! : ANSWERS.pt! }));
    const response = await h.chat({ url: watchUrl("normal"), language: "pt" });
    expect(response.status).toBe(200);
    expect((await response.json()).output).toBe(ANSWERS.pt!);
    expect(h.llm.calls).toHaveLength(2);
    expect(h.llm.calls[1]!.text).toContain("Rewrite it in Portuguese");
  });

  test("an answer already in the requested language costs one call", async () => {
    const response = await h.chat({ url: watchUrl("normal"), language: "hi" });
    expect((await response.json()).output).toBe(ANSWERS.hi!);
    expect(h.llm.calls).toHaveLength(1);
  });

  test("a model answering in Markdown for text gets plain text with lists kept as lists", async () => {
    h.llm.respondWith(() => ({
      content:
        "## Summary\n\nThe **Surface Go** is [reviewed](https://example.com) [0:01].\n\n* Light\n* `Cheap`\n\n| Part | Verdict |\n|---|---|\n| Screen | Good |",
    }));
    const body = await (await h.chat({ url: watchUrl("normal"), output_format: "text" })).json();
    expect(body.output).toBe(
      "Summary\n\nThe Surface Go is reviewed (https://example.com) [0:01].\n\n- Light\n- Cheap\n\n- Part: Screen; Verdict: Good",
    );
  });

  test("markdown output keeps the model's Markdown", async () => {
    const markdown = "## Summary\n\n- The **Surface Go** is light [0:01].";
    h.llm.respondWith(() => ({ content: markdown }));
    const body = await (await h.chat({ url: watchUrl("normal"), output_format: "markdown" })).json();
    expect(body.output).toBe(markdown);
    expect(h.llm.calls[0]!.text).toContain("Format the answer as Markdown");
  });

  test("timestamps that do not exist in the transcript are not cited", async () => {
    h.llm.respondWith(() => ({ content: "He says so at [0:01] and again at [42:00]." }));
    const body = await (await h.chat({ url: watchUrl("normal"), prompt: "When does he say it?" })).json();
    expect(body.output).toBe("He says so at [0:01] and again at.");
  });

  test("token usage summed over the request's calls reaches the request log, and the Groq key never does", async () => {
    h.llm.respondWith((_, index) => ({
      content: index === 0 ? ANSWERS.ru! : ANSWERS.es!,
      promptTokens: 500,
      completionTokens: 40,
    }));
    const response = await h.chat({ url: watchUrl("normal"), language: "es", prompt: "¿Qué opina del teclado?" });
    expect(response.status).toBe(200);
    const log = (await requestLogLines(h.service, response))[0]!;
    expect(log).toMatchObject({ llm_calls: 2, input_tokens: 1000, output_tokens: 80 });
    expect(h.service.output()).not.toContain(GROQ_KEY);
  });
});
