/** @module End-to-end test that one key's burst takes only its share of `MAX_IN_FLIGHT`, so other keys are served. */
import { describe, expect, test } from "bun:test";
import { ANSWERS } from "../support/fake/llm.ts";
import { servicePerFile } from "../support/service/per-file.ts";
import { watchUrl } from "../support/fixtures.ts";
import { postChat, targetFromEnv } from "../support/service/process.ts";

const FLOODER = "e2e-flooding-key-0123456789abcdef";
const OTHER = "e2e-patient-key-0123456789abcdef";
const LLM_DELAY_MS = 2_000;

const rig = servicePerFile(({ youtube, llm }) => ({
  API_KEYS: `${FLOODER},${OTHER}`,
  MAX_IN_FLIGHT: "4",
  YOUTUBE_BASE_URL: youtube.origin,
  GROQ_API_KEY: "gsk_fake",
  GROQ_BASE_URL: llm.baseUrl,
}), {
  prepare: ({ llm }) => llm.respondWith(() => ({ content: ANSWERS.en!, delayMs: LLM_DELAY_MS })),
  stopSignal: "SIGKILL",
});

const ask = (key: string, prompt: string) =>
  postChat(rig.service.url, { url: watchUrl("normal"), prompt }, { "x-api-key": key });

describe(`per-key share of the work in flight (${targetFromEnv()})`, () => {
  test("a key flooding the server holds half of MAX_IN_FLIGHT; the rest is refused to it alone, and another key is served", async () => {
    const flood = Array.from({ length: 8 }, (_, i) => ask(FLOODER, `flood question ${i}`));
    // The flooder's share (2 of 4) is at work once the fake LLM has seen two calls; the rest were refused at once.
    for (let i = 0; i < 200 && rig.llm.calls.length < 2; i++) await Bun.sleep(25);
    await Bun.sleep(100);
    expect(rig.llm.calls.length).toBe(2);

    const other = await ask(OTHER, "a question from another key while the flood is at work");
    expect(other.status).toBe(200);
    const flooded = await Promise.all(flood);
    const statuses = flooded.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 503, 503, 503, 503, 503, 503]);
    const refusal = await flooded.find((r) => r.status === 503)!.json();
    expect(refusal.error.code).toBe("overloaded");
    expect(refusal.error.message).toContain("This API key already has 2 requests at work");
    expect(Number(flooded.find((r) => r.status === 503)!.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  });
});
