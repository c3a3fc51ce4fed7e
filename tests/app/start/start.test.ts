/** @module Tests of start-up and shutdown: bad settings, ports, banner, admin port, request log, buffered lines. */
import { describe, expect, test } from "bun:test";
import { createBufferedLines } from "../../../src/app/log/buffered-lines.ts";
import { createRequestLog, requestFields } from "../../../src/app/log/request-log.ts";
import { runService } from "../../../src/app/start/start.ts";
import { createInFlight, shutDown } from "../../../src/app/start/shutdown.ts";
import { fakeRuntime as fakeWithListeners } from "../../support/fake/runtime.ts";
import type { Logger } from "../../../src/app/log/logger.ts";

/** The fake runtime with the admin listener (port 9100) named apart, and a fetch on each listener. */
function fakeRuntime(env: Record<string, string>) {
  const fake = fakeWithListeners(env, { 9100: "admin" });
  return {
    ...fake,
    fetch: (request: Request) => fake.served.get("public")!.fetch(request),
    adminFetch: (path: string) => fake.served.get("admin")!.fetch(new Request(`http://127.0.0.1:9100${path}`)),
  };
}

const silent: Logger = { info() {}, warn() {}, error() {} };

describe("runService()", () => {
  test("bad settings print every problem and exit 2 before serving", async () => {
    const fake = fakeRuntime({ PORT: "x", RATE_LIMIT: "lots" });
    await expect(runService(fake.runtime)).rejects.toThrow("exit 2");
    expect(fake.errors.join("\n")).toContain("PORT must be");
    expect(fake.errors.join("\n")).toContain("RATE_LIMIT must");
    expect(fake.printed).toEqual([]);
  });

  test("a port that cannot be bound exits 1 with a message naming it", async () => {
    const fake = fakeRuntime({ API_KEYS: "k-0123456789", PORT: "1", HOST: "127.0.0.1" });
    await expect(runService(fake.runtime)).rejects.toThrow("exit 1");
    expect(fake.errors[0]).toStartWith("Cannot listen on 127.0.0.1:1: ");
  });

  test("prints the banner with the bound port and runtime, logs each request, and exits 0 on a signal", async () => {
    const fake = fakeRuntime({
      API_KEYS: "k-0123456789-0123456789-0123456789",
      PORT: "0",
      HOST: "::1",
      LOG_FORMAT: "json",
    });
    await runService(fake.runtime);
    // The banner is one print, so a reader of the output never sees half of it.
    const banner = fake.printed.find((text) => text.startsWith("Video Chat Service listening on"))!.split("\n");
    expect(banner[0]).toBe("Video Chat Service listening on http://[::1]:4321 (Fake 1.0)");
    expect(banner).toContain("  API docs:    http://[::1]:4321/swagger");
    const response = await fake.fetch(new Request("http://[::1]:4321/nowhere"));
    expect(response.status).toBe(404);
    // Log lines are written together once per timer turn, several to a print.
    const requestLine = async (): Promise<string | undefined> => {
      for (let turn = 0; turn < 50; turn++) {
        const found = fake.printedLines().find((l) => l.includes('"event":"request"'));
        if (found) return found;
        await Bun.sleep(2);
      }
      return undefined;
    };
    const line = JSON.parse((await requestLine())!);
    expect(line).toMatchObject({ method: "GET", path: "/nowhere", status: 404, error_code: "not_found" });
    fake.send("SIGTERM");
    expect(await fake.exited).toBe(0);
    expect(fake.events).toEqual(["stop"]);
  });
});

describe("runService() with ADMIN_PORT", () => {
  test("serves the admin port (banner line), ready once serving, not ready from the signal on, and closes it after the service", async () => {
    const fake = fakeRuntime({
      API_KEYS: "k-0123456789",
      PORT: "0",
      HOST: "127.0.0.1",
      ADMIN_PORT: "9100",
      LOG_FORMAT: "json",
    });
    await runService(fake.runtime);
    expect(fake.printedLines()).toContain("  Admin:       http://127.0.0.1:9100 (/healthz, /readyz, /metrics)");
    expect((await fake.adminFetch("/readyz")).status).toBe(200);
    await fake.fetch(new Request("http://127.0.0.1:4321/nowhere"));
    expect(await (await fake.adminFetch("/metrics")).text()).toContain(
      'vcs_http_requests_total{status="404",code="not_found"} 1',
    );
    fake.send("SIGTERM");
    expect((await fake.adminFetch("/readyz")).status).toBe(503);
    expect(await fake.exited).toBe(0);
    expect(fake.events).toEqual(["stop", "admin abort"]);
  });

  test("an admin port that cannot be bound exits 1 naming ADMIN_PORT, before the service is built", async () => {
    const fake = fakeRuntime({ API_KEYS: "k-0123456789", PORT: "0", HOST: "127.0.0.1", ADMIN_PORT: "1" });
    await expect(runService(fake.runtime)).rejects.toThrow("exit 1");
    expect(fake.errors[0]).toStartWith("Cannot listen on 127.0.0.1:1: ");
    expect(fake.errors[0]).toContain("set ADMIN_PORT or ADMIN_HOST");
    expect(fake.printed).toEqual([]);
  });
});

describe("shutDown()", () => {
  test("waits for the requests in flight, then closes the service", async () => {
    const inFlight = createInFlight();
    const { promise: release, resolve } = Promise.withResolvers<void>();
    const slow = inFlight.wrap(async () => {
      await release;
      return new Response("done");
    });
    const answer = slow(new Request("http://x/"));
    const order: string[] = [];
    const stopping = shutDown({
      listener: { port: 1, stop: async () => void order.push("stop"), abort: async () => void order.push("abort") },
      inFlight,
      graceMs: 5_000,
      closeService: async () => void order.push("close"),
      logger: silent,
      signal: "SIGTERM",
    });
    await Bun.sleep(20);
    expect(order).toEqual(["stop"]);
    resolve();
    expect(await (await answer).text()).toBe("done");
    expect(await stopping).toBe(true);
    expect(order).toEqual(["stop", "close"]);
  });

  test("cuts what is still running when the grace period ends, and still closes", async () => {
    const inFlight = createInFlight();
    void inFlight.wrap(() => new Promise<Response>(() => {}))(new Request("http://x/"));
    const order: string[] = [];
    const warnings: string[] = [];
    const logger: Logger = { ...silent, warn: (event) => void warnings.push(event) };
    const drained = await shutDown({
      listener: { port: 1, stop: () => new Promise(() => {}), abort: async () => void order.push("abort") },
      inFlight,
      graceMs: 30,
      closeService: async () => void order.push("close"),
      logger,
      signal: "SIGINT",
    });
    expect(drained).toBe(false);
    expect(order).toEqual(["abort", "close"]);
    expect(warnings).toEqual(["shutdown_grace_exceeded"]);
  });
});

describe("request log", () => {
  test("requestFields() leaves out absent facts and the query string, and never holds the prompt", () => {
    const fields = requestFields(new Request("http://127.0.0.1:3000/chat?api_key=secret#x"), 200, "rid", 12.345, {
      videoId: "GJLlxj_dtq8",
      promptLength: 12,
      cache: "hit",
    });
    expect(fields).toEqual({
      request_id: "rid",
      method: "GET",
      path: "/chat",
      status: 200,
      duration_ms: 12.3,
      video_id: "GJLlxj_dtq8",
      prompt_length: 12,
      cache: "hit",
    });
  });

  test("requestFields() logs the YouTube requests a writer made itself, only when it says", () => {
    const request = new Request("http://127.0.0.1:3000/chat", { method: "POST" });
    const offline = requestFields(request, 200, "rid", 1, {
      cache: "miss",
      usage: { calls: 0, inputTokens: 0, outputTokens: 0 },
      extraYoutubeRequests: 1,
    });
    expect(offline).toMatchObject({ llm_calls: 0, extra_youtube_requests: 1 });
    const llm = requestFields(request, 200, "rid", 1, {
      cache: "miss",
      usage: { calls: 2, inputTokens: 10, outputTokens: 5 },
    });
    expect(llm).not.toHaveProperty("extra_youtube_requests");
  });

  test("requestFields() says who did the work of a shared answer", () => {
    const fields = requestFields(new Request("http://127.0.0.1:3000/chat"), 200, "rid", 1, {
      cache: "shared",
      work: "remote",
    });
    expect([fields.cache, fields.work]).toEqual(["shared", "remote"]);
  });

  test("a handler that throws is logged as a 500 at error level, and the error still propagates", async () => {
    const lines: { level: string; fields: unknown }[] = [];
    const logger: Logger = {
      info: (_, fields) => void lines.push({ level: "info", fields }),
      warn() {},
      error: (_, fields) => void lines.push({ level: "error", fields }),
    };
    const log = createRequestLog({ logger });
    const failing = log.wrap(() => Promise.reject(new Error("boom")));
    await expect(failing(new Request("http://x/chat", { method: "POST" }))).rejects.toThrow("boom");
    expect(lines).toEqual([{
      level: "error",
      fields: expect.objectContaining({ method: "POST", path: "/chat", status: 500 }),
    }]);
  });
});

describe("createBufferedLines()", () => {
  test("writes the lines queued in one turn with one call, in order, and flush() writes at once", async () => {
    const writes: string[] = [];
    const lines = createBufferedLines((text) => writes.push(text));
    lines.line("a");
    lines.line("b");
    expect(writes).toEqual([]);
    await Bun.sleep(5);
    expect(writes).toEqual(["a\nb"]);
    lines.line("c");
    lines.flush();
    expect(writes).toEqual(["a\nb", "c"]);
    await Bun.sleep(5);
    expect(writes).toEqual(["a\nb", "c"]);
  });

  test("never holds more than maxPending lines", () => {
    const writes: string[] = [];
    const lines = createBufferedLines((text) => writes.push(text), { maxPending: 3 });
    for (const name of ["a", "b", "c", "d"]) lines.line(name);
    expect(writes).toEqual(["a\nb\nc"]);
    lines.flush();
    expect(writes).toEqual(["a\nb\nc", "d"]);
  });
});
