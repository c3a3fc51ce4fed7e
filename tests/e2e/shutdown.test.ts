/** @module End-to-end tests of graceful shutdown on SIGTERM and SIGINT, and of the grace period. */
import { describe, expect, test } from "bun:test";
import { connect } from "node:net";
import { ANSWERS } from "../support/fake/llm.ts";
import { watchUrl } from "../support/fixtures.ts";
import { servicePerTest } from "../support/service/per-test.ts";
import { postChat, targetFromEnv } from "../support/service/process.ts";

const KEY = "e2e-shutdown-key-0123456789";
const rig = servicePerTest(({ youtube, llm }) => ({
  API_KEYS: KEY,
  YOUTUBE_BASE_URL: youtube.origin,
  GROQ_API_KEY: "gsk_fake",
  GROQ_BASE_URL: llm.baseUrl,
}));

/** Resolves with the connection error's code, or "connected". */
function tryConnect(url: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) });
    socket.once("connect", () => {
      socket.destroy();
      resolve("connected");
    });
    socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await Bun.sleep(10);
  }
}

/** Three different questions, so that none shares another's work. */
function threeSlowRequests(url: string): Promise<Response>[] {
  return ["one", "two", "three"].map((word) =>
    postChat(url, { url: watchUrl("normal"), prompt: `question ${word}?` }, { "x-api-key": KEY })
  );
}

describe(`graceful shutdown (${targetFromEnv()})`, () => {
  test(
    "SIGTERM with three slow requests in flight: all three complete with 200, new connections are refused, exit code 0",
    async () => {
      rig.llm.respondWith(() => ({ content: ANSWERS.en!, delayMs: 1_500 }));
      const service = await rig.start({ SHUTDOWN_GRACE_MS: "20000" });
      const inFlight = threeSlowRequests(service.url);
      await waitFor(() => rig.llm.calls.length >= 3, 10_000);
      service.process.kill("SIGTERM");
      await waitFor(() => service!.output().includes("shutdown_started"), 5_000);
      expect(await tryConnect(service.url)).toBe("ECONNREFUSED");
      const responses = await Promise.all(inFlight);
      expect(responses.map((r) => r.status)).toEqual([200, 200, 200]);
      for (const response of responses) expect((await response.json()).output).toContain("Surface Go");
      expect(await service.finished()).toBe(0);
      expect(service.output()).toContain("shutdown_complete");
    },
    30_000,
  );

  test("SIGINT on an idle service exits 0 at once", async () => {
    const service = await rig.start();
    const started = Date.now();
    service.process.kill("SIGINT");
    expect(await service.process.exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(5_000);
  }, 30_000);

  test("requests still running when SHUTDOWN_GRACE_MS ends are cut, and the process still exits 0", async () => {
    rig.llm.respondWith(() => ({ hang: true }));
    const service = await rig.start({ SHUTDOWN_GRACE_MS: "300" });
    const stuck = postChat(service.url, { url: watchUrl("normal"), prompt: "never answered" }, { "x-api-key": KEY })
      .then((r) => r.status, () => "cut");
    await waitFor(() => rig.llm.calls.length >= 1, 10_000);
    const started = Date.now();
    service.process.kill("SIGTERM");
    expect(await service.finished()).toBe(0);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await stuck).toBe("cut");
    expect(service.output()).toContain("shutdown_grace_exceeded");
  }, 30_000);
});
