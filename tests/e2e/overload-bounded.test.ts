/** @module End-to-end test that work past `MAX_IN_FLIGHT` is refused at once as `overloaded`. */
import { describe, expect, test } from "bun:test";
import { ANSWERS } from "../support/fake/llm.ts";
import { servicePerFile } from "../support/service/per-file.ts";
import { watchUrl } from "../support/fixtures.ts";
import { postChat, targetFromEnv } from "../support/service/process.ts";

const KEY = "e2e-overload-key-0123456789";
const LLM_DELAY_MS = 2_000;

const rig = servicePerFile(({ youtube, llm }) => ({
  API_KEYS: KEY,
  MAX_IN_FLIGHT: "4",
  // The whole bound is the subject here: the one key may take every place (tests/e2e/overload-per-key.test.ts).
  MAX_IN_FLIGHT_PER_KEY: "4",
  RATE_LIMIT: "100/hour",
  YOUTUBE_BASE_URL: youtube.origin,
  GROQ_API_KEY: "gsk_fake",
  GROQ_BASE_URL: llm.baseUrl,
}), {
  prepare: ({ llm }) => llm.respondWith(() => ({ content: ANSWERS.en!, delayMs: LLM_DELAY_MS })),
  stopSignal: "SIGKILL",
});

const ask = (prompt: string) => postChat(rig.service.url, { url: watchUrl("normal"), prompt }, { "x-api-key": KEY });

describe(`overload protection (${targetFromEnv()})`, () => {
  test("past MAX_IN_FLIGHT, new work is refused at once with 503 overloaded, given back to the key's budget; identical requests join work in flight", async () => {
    const leaders = Array.from({ length: 4 }, (_, i) => ask(`slow question ${i}`));
    // Every place is taken once the fake LLM has seen the four generations (each then lasts 2 s).
    for (let i = 0; i < 200 && rig.llm.calls.length < 4; i++) await Bun.sleep(25);
    expect(rig.llm.calls.length).toBe(4);

    const started = performance.now();
    for (let i = 0; i < 10; i++) {
      const refused = await ask(`refused question ${i}`);
      expect(refused.status).toBe(503);
      const body = await refused.json();
      expect(body.error.code).toBe("overloaded");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(refused.headers.get("ratelimit-remaining")).toBe("96");
    }
    expect(performance.now() - started).toBeLessThan(1_500);

    const followers = Array.from({ length: 12 }, (_, i) => ask(`slow question ${i % 4}`));
    const all = await Promise.all([...leaders, ...followers]);
    expect(all.map((r) => r.status)).toEqual(Array(16).fill(200));
    const timings = all.slice(4).map((r) => r.headers.get("server-timing") ?? "");
    expect(timings.every((t) => t.includes("cache;desc=shared") || t.includes("cache;desc=hit"))).toBe(true);
    expect(rig.llm.peakConcurrency).toBeLessThanOrEqual(4 * 4);

    const after = await ask("a new question once the load is gone");
    expect(after.status).toBe(200);
  });
});
