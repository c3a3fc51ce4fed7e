/** @module End-to-end tests of the answer cache with a fake LLM: repeats, shared generations, distinct requests. */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { ANSWERS, requestedLanguage } from "../support/fake/llm.ts";
import { watchUrl } from "../support/fixtures.ts";
import { type LlmHarness, startLlmHarness } from "./llm-harness.ts";

let h: LlmHarness;
let videoCounter = 0;
beforeAll(async () => {
  h = await startLlmHarness();
});
afterAll(() => h?.close());
beforeEach(() => {
  h.youtube.reset();
  h.llm.reset();
  h.llm.respondWith((call) => ({ content: ANSWERS[requestedLanguage(call)]!, delayMs: 300 }));
});

/** A prompt no earlier test used, so each test starts with a cold cache. */
const freshPrompt = () => `What does the reviewer like? (${++videoCounter})`;

describe("POST /chat answer cache (fake LLM)", () => {
  test("an identical request is answered from the cache without calling the LLM", async () => {
    const body = { url: watchUrl("normal"), prompt: freshPrompt(), language: "es" };
    const first = await (await h.chat(body)).json();
    const started = performance.now();
    const second = await h.chat(body);
    expect(await second.json()).toEqual(first);
    expect(h.llm.calls).toHaveLength(1);
    expect(performance.now() - started).toBeLessThan(250);
    expect(second.headers.get("server-timing")).toContain("cache;desc=hit");
  });

  test("concurrent identical requests share one generation", async () => {
    const body = { url: watchUrl("normal"), prompt: freshPrompt() };
    const responses = await Promise.all(Array.from({ length: 5 }, () => h.chat(body)));
    const bodies = await Promise.all(responses.map((r) => r.json()));
    expect(responses.every((r) => r.status === 200)).toBe(true);
    expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1);
    expect(h.llm.calls).toHaveLength(1);
  });

  test("requests differing in language, format or prompt are generated separately", async () => {
    const prompt = freshPrompt();
    await h.chat({ url: watchUrl("normal"), prompt });
    await h.chat({ url: watchUrl("normal"), prompt, language: "ru" });
    await h.chat({ url: watchUrl("normal"), prompt, output_format: "markdown" });
    await h.chat({ url: watchUrl("normal"), prompt: `${prompt}?` });
    expect(h.llm.calls).toHaveLength(4);
  });
});
