/** @module End-to-end tests of LLM_BASE_URL on the servers operators run: vLLM, Ollama and OpenRouter answer under /v1. */
import { afterEach, describe, expect, test } from "bun:test";
import { VIDEOS, watchUrl } from "../support/fixtures.ts";
import { captionXml, generateCues } from "../support/long-transcript.ts";
import { type FakeLlm, startFakeLlm } from "../support/fake/llm.ts";
import type { FakeModel, LlmFlavor } from "../support/fake/llm-models.ts";
import { type FakeYoutube, startFakeYoutube } from "../support/fake/youtube.ts";
import { requestLogLines } from "../support/request-log-lines.ts";
import { postChat, type RunningService, startService } from "../support/service/process.ts";

const API_KEY = "e2e-local-llm-key-0123";
const MODEL: FakeModel = { id: "meta-llama/Llama-3.1-8B-Instruct", contextTokens: 32_768 };

let youtube: FakeYoutube | undefined;
let llm: FakeLlm | undefined;
let service: RunningService | undefined;
afterEach(async () => {
  await service?.stop();
  await llm?.close();
  await youtube?.close();
  service = llm = youtube = undefined;
});

/** A fresh process on an endpoint of `flavor`, named the way its own clients name it, and a 1-hour video. */
async function onLocal(flavor: LlmFlavor, env: Record<string, string> = {}) {
  youtube = startFakeYoutube();
  youtube.setCaption(VIDEOS.normal.id, captionXml(generateCues(3600)));
  llm = startFakeLlm({ flavor, models: [MODEL] });
  service = await startService({
    API_KEYS: API_KEY,
    YOUTUBE_BASE_URL: youtube.origin,
    LLM_BASE_URL: llm.baseUrl,
    LLM_API_KEY: "local-key",
    LLM_MODEL: MODEL.id,
    ...env,
  });
  const response = await postChat(service.url, { url: watchUrl("normal") }, { "x-api-key": API_KEY });
  return { response, line: (await requestLogLines(service, response))[0]! };
}

describe("an OpenAI-compatible server on this machine, named by LLM_BASE_URL", () => {
  test("vLLM (answers only under /v1, states a 32,768-token context, no rate limits): a 1-hour summary is read whole in one call", async () => {
    const { response, line } = await onLocal("vllm");
    expect(response.status).toBe(200);
    expect([line.plan, line.coverage, line.llm_calls]).toEqual(["one-call", 1, 1]);
    // Unpaced: its call waited no window (a few ms of the line's own work at most).
    expect(line.budget_wait_ms as number).toBeLessThan(50);
    expect(llm!.calls.map((c) => c.refused)).toEqual([undefined]);
    expect(service!.output()).toContain("(context 32,768 tokens, from the endpoint's /models)");
  });

  test("OpenRouter's /api/v1 and its context_length work the same", async () => {
    const { response, line } = await onLocal("openrouter");
    expect(response.status).toBe(200);
    expect([line.plan, line.coverage]).toEqual(["one-call", 1]);
  });

  test("Ollama states no context window: the service plans on its guess, and reads the whole video unpaced", async () => {
    const { response, line } = await onLocal("ollama");
    expect(response.status).toBe(200);
    expect(line.plan).toBe("map-reduce");
    expect(line.coverage).toBe(1);
    expect(line.budget_wait_ms as number).toBeLessThan(50);
    expect(service!.output()).toContain("(context 8,192 tokens, from a guess)");
  });

  test("LLM_CONTEXT_TOKENS still overrides what the endpoint states", async () => {
    const { line } = await onLocal("vllm", { LLM_CONTEXT_TOKENS: "8192" });
    expect(line.plan).toBe("map-reduce");
    expect(service!.output()).toContain("(context 8,192 tokens, from LLM_CONTEXT_TOKENS)");
  });

  test("GROQ_BASE_URL and LLM_BASE_URL set to different endpoints: start-up refuses, naming both", async () => {
    const refused = await startService({ LLM_BASE_URL: "http://127.0.0.1:1/v1", GROQ_BASE_URL: "https://api.groq.com" })
      .catch((error) => error);
    expect(String(refused)).toContain("LLM_BASE_URL and GROQ_BASE_URL name the same setting but differ");
  });
});
