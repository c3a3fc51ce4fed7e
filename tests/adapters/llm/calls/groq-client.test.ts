/** @module Tests of groq-client.ts: groq-sdk's requests rebased onto any OpenAI-compatible base, dialect, private hosts. */
import { describe, expect, test } from "bun:test";
import { createGroqClient, dialectOf, isPrivateEndpoint } from "../../../../src/adapters/llm/calls/groq-client.ts";

describe("createGroqClient()", () => {
  test("groq-sdk's requests land under the base URL as OpenAI-compatible clients write it", async () => {
    for (
      const base of [
        "https://api.groq.com/openai/v1",
        "http://localhost:11434/v1",
        "https://openrouter.ai/api/v1",
        "http://10.0.0.5:8000/v1/",
      ]
    ) {
      const seen: string[] = [];
      const fetch = ((input: string | URL | Request) => {
        seen.push(input instanceof Request ? input.url : String(input));
        return Promise.resolve(Response.json({ object: "list", data: [] }));
      }) as typeof globalThis.fetch;
      await createGroqClient({ apiKey: "k", baseUrl: base, timeoutMs: 1_000, fetch }).models.list();
      expect(seen).toEqual([`${base.replace(/\/$/, "")}/models`]);
    }
  });

  test("a redirect is refused, not followed: the API key never goes to another origin", async () => {
    const elsewhere = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: (r) => Response.json({ auth: r.headers.get("authorization") }),
    });
    const redirecting = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: () => Response.redirect(`http://127.0.0.1:${elsewhere.port}/v1/models`, 307),
    });
    try {
      const client = createGroqClient({
        apiKey: "gsk_secret",
        baseUrl: `http://127.0.0.1:${redirecting.port}/v1`,
        timeoutMs: 2_000,
      });
      const failed = await client.models.list().then(() => false, () => true);
      expect(failed).toBe(true);
    } finally {
      redirecting.stop(true);
      elsewhere.stop(true);
    }
  });
});

describe("what a base URL tells", () => {
  test("dialectOf(): Groq's host, or a base ending in /openai/v1, writes Groq's headers; others OpenAI's", () => {
    expect(dialectOf("https://api.groq.com/openai/v1")).toBe("groq");
    expect(dialectOf("http://127.0.0.1:4000/openai/v1")).toBe("groq");
    expect(dialectOf("https://api.openai.com/v1")).toBe("openai");
    expect(dialectOf("http://localhost:11434/v1")).toBe("openai");
  });

  test("isPrivateEndpoint(): loopback, private ranges and localhost; not public hosts", () => {
    for (
      const url of [
        "http://localhost:11434/v1",
        "http://127.0.0.1:8000/v1",
        "http://10.1.2.3/v1",
        "http://192.168.1.9/v1",
        "http://172.20.0.2/v1",
        "http://[::1]:8000/v1",
      ]
    ) {
      expect(isPrivateEndpoint(url)).toBe(true);
    }
    for (
      const url of [
        "https://api.groq.com/openai/v1",
        "https://openrouter.ai/api/v1",
        "http://172.32.0.1/v1",
        "not a url",
      ]
    ) {
      expect(isPrivateEndpoint(url)).toBe(false);
    }
  });
});
