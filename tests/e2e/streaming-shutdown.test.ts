/** @module End-to-end tests of streams in flight at SIGTERM: done within the grace period, or an error event. */
import { describe, expect, test } from "bun:test";
import { ANSWERS } from "../support/fake/llm.ts";
import { watchUrl } from "../support/fixtures.ts";
import { servicePerTest } from "../support/service/per-test.ts";
import { targetFromEnv } from "../support/service/process.ts";
import { deltaText, eventNames, readEvents } from "../support/sse.ts";

const KEY = "e2e-stream-shutdown-key-0123";
const rig = servicePerTest(({ youtube, llm }) => ({
  API_KEYS: KEY,
  YOUTUBE_BASE_URL: youtube.origin,
  GROQ_API_KEY: "gsk_fake",
  GROQ_BASE_URL: llm.baseUrl,
  STREAM_KEEPALIVE_MS: "200",
}));

function stream(url: string, prompt: string): Promise<Response> {
  return fetch(`${url}/chat`, {
    method: "POST",
    headers: { "x-api-key": KEY, accept: "text/event-stream", "content-type": "application/json" },
    body: JSON.stringify({ url: watchUrl("normal"), prompt }),
  });
}

async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await Bun.sleep(10);
  }
}

describe(`streams at shutdown (${targetFromEnv()})`, () => {
  test(
    "a stream in flight at SIGTERM finishes within the grace period with done, then the process exits 0",
    async () => {
      rig.llm.respondWith(() => ({ content: ANSWERS.en!, chunkChars: 6, chunkDelayMs: 60 }));
      const service = await rig.start({ SHUTDOWN_GRACE_MS: "20000" });
      const response = await stream(service.url, "finishing?");
      const reading = readEvents(response);
      await waitFor(() => rig.llm.calls.length >= 1);
      service.process.kill("SIGTERM");
      const events = await reading;
      expect(eventNames(events).at(-1)).toBe("done");
      expect(deltaText(events)).toBe(ANSWERS.en!);
      expect(await service.process.exited).toBe(0);
    },
    30_000,
  );

  test(
    "a stream still open when SHUTDOWN_GRACE_MS ends gets an error event (overloaded) before the connection closes; exit 0",
    async () => {
      rig.llm.respondWith(() => ({ hang: true }));
      const service = await rig.start({ SHUTDOWN_GRACE_MS: "400" });
      const response = await stream(service.url, "never answered");
      expect(response.status).toBe(200);
      const reading = readEvents(response);
      await waitFor(() => rig.llm.calls.length >= 1);
      service.process.kill("SIGTERM");
      const events = await reading;
      expect(eventNames(events)).toEqual(["progress", "progress", "error"]);
      expect(events.at(-1)!.data.error.code).toBe("overloaded");
      expect(await service.finished()).toBe(0);
      expect(service.output()).toContain("shutdown_grace_exceeded");
    },
    30_000,
  );
});
