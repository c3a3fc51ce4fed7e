/** @module End-to-end tests of the typed Eden client (`treaty<App>`) against the running service. */
import { describe, expect, test } from "bun:test";
import { treaty } from "@elysiajs/eden";
import type { App } from "../../src/app/client-types.ts";
import { servicePerFile } from "../support/service/per-file.ts";
import { watchUrl } from "../support/fixtures.ts";
import { targetFromEnv } from "../support/service/process.ts";

const KEY = "eden-key-0123456789";

const rig = servicePerFile(({ youtube, llm }) => ({
  API_KEYS: KEY,
  YOUTUBE_BASE_URL: youtube.origin,
  GROQ_API_KEY: "gsk_fake_for_eden",
  GROQ_BASE_URL: llm.baseUrl,
  GROQ_MODEL: "fake-model",
}));

describe(`the typed Eden client against the running server (${targetFromEnv()})`, () => {
  test("POST /chat through treaty<App> returns the typed response", async () => {
    const api = treaty<App>(rig.service.url, { headers: { "x-api-key": KEY } });
    const { data, error, status } = await api.chat.post({
      url: watchUrl("normal"),
      prompt: "What does the reviewer think of the keyboard?",
      language: "es",
      output_format: "markdown",
    });
    expect(error).toBeNull();
    expect(status).toBe(200);
    // Typed fields: a misspelt property would not compile.
    const duration: string | undefined = data?.video_duration;
    expect(duration).toBe("5 minutes");
    expect(data).toMatchObject({
      url: watchUrl("normal"),
      model: "chat-1.0",
      language: "es",
      output_format: "markdown",
      prompt: "What does the reviewer think of the keyboard?",
    });
    expect(data?.output.length).toBeGreaterThan(0);
  });

  test("the request type knows the contract: a language outside the enum does not compile, and the server refuses it too", async () => {
    const api = treaty<App>(rig.service.url, { headers: { "x-api-key": KEY } });
    // @ts-expect-error "fr" is not one of the documented languages
    const { data, error } = await api.chat.post({ url: watchUrl("normal"), language: "fr" });
    expect(data).toBeNull();
    if (error?.status !== 400) throw new Error(`Expected a 400, got ${error?.status}`);
    // Typed error body: every status of the README's Errors table is declared on the route.
    expect(error.value.error.code).toBe("invalid_request");
    expect(error.value.error.message).toContain("language");
  });

  test("without a key the client gets the contract's 401 body", async () => {
    const api = treaty<App>(rig.service.url);
    const { error } = await api.chat.post({ url: watchUrl("normal") });
    expect(error?.status).toBe(401);
    expect(error?.value).toMatchObject({ error: { code: "unauthorized", request_id: expect.any(String) } });
  });
});
