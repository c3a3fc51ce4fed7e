/** @module Tests of readModelListing() against servers that list their models as Groq, vLLM, OpenRouter and Ollama do. */
import { afterAll, describe, expect, test } from "bun:test";
import { readModelListing } from "../../../../src/adapters/llm/calls/model-list.ts";
import { type FakeLlm, startFakeLlm } from "../../../support/fake/llm.ts";

const servers: FakeLlm[] = [];
afterAll(async () => await Promise.all(servers.map((s) => s.close())));
const serve = (options: Parameters<typeof startFakeLlm>[0]) => {
  const server = startFakeLlm(options);
  servers.push(server);
  return server;
};
const read = (baseUrl: string, model: string) => readModelListing({ apiKey: "k", baseUrl, model, timeoutMs: 2_000 });

describe("readModelListing()", () => {
  test("reads the context window each server states: Groq's context_window, vLLM's max_model_len, OpenRouter's context_length", async () => {
    const models = [{ id: "m/one", contextTokens: 32_768 }];
    for (const flavor of ["groq", "vllm", "openrouter"] as const) {
      const listing = await read(serve({ flavor, models }).baseUrl, "m/one");
      expect(listing).toEqual({ listed: true, contextTokens: 32_768, ids: ["m/one"] });
    }
  });

  test("Ollama lists its models without a context window", async () => {
    const listing = await read(
      serve({ flavor: "ollama", models: [{ id: "gpt-oss:20b", contextTokens: 1 }] }).baseUrl,
      "gpt-oss:20b",
    );
    expect(listing).toEqual({ listed: true, contextTokens: undefined, ids: ["gpt-oss:20b"] });
  });

  test("a model not listed is said so; an endpoint without the route tells nothing", async () => {
    const groq = serve({});
    expect(await read(groq.baseUrl, "llama-3.1-8b-instant")).toMatchObject({ listed: false });
    expect((await read(`${groq.origin}/v1`, "openai/gpt-oss-20b")).listed).toBeUndefined();
    expect((await read("http://127.0.0.1:9/v1", "x")).listed).toBeUndefined();
  });
});
