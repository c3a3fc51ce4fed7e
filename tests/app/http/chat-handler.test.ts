/** @module Tests of the `POST /chat` handler through the app: success, the error table and the order of checks. */
import { describe, expect, test } from "bun:test";
import { type App, BASE, chat, expectError, VIDEO } from "../../support/http-app-calls.ts";
import { createMemoryWorkGate } from "../../../src/adapters/limits/memory-work-gate.ts";
import { appWithFakes, CountingLimiter, FakeTranscripts, FakeWriter, TEST_KEY } from "../../support/fake/ports.ts";

describe("POST /chat success", () => {
  test("answers a body holding only url with every default", async () => {
    const { app, writer } = appWithFakes();
    const response = await chat(app, { url: VIDEO });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await response.json()).toEqual({
      url: VIDEO,
      model: "chat-1.0",
      prompt: "summary",
      language: "en",
      output_format: "text",
      output: "answer to summary in en as text",
      video_duration: "5 minutes",
    });
    expect(writer.specs[0]!.intent).toBe("summary");
  });

  test("processes and echoes a prompt cut at 500 characters", async () => {
    const { app, writer } = appWithFakes();
    const response = await chat(app, {
      url: VIDEO,
      prompt: "x".repeat(700),
      language: "ru",
      output_format: "markdown",
      model: "chat-1.0",
    });
    const body = await response.json();
    expect(body.prompt).toBe("x".repeat(500));
    expect(writer.specs[0]!.prompt).toBe("x".repeat(500));
    expect(body.language).toBe("ru");
    expect(body.output_format).toBe("markdown");
  });

  test("echoes a sane x-request-id and replaces an insane one", async () => {
    const { app } = appWithFakes();
    expect((await chat(app, { url: VIDEO }, { "x-request-id": "abc-123" })).headers.get("x-request-id")).toBe(
      "abc-123",
    );
    const replaced = (await chat(app, { url: VIDEO }, { "x-request-id": "bad id\twith spaces" })).headers.get(
      "x-request-id",
    );
    expect(replaced).toMatch(/^[0-9a-f-]{36}$/);
  });

  test("accepts a charset parameter on the content type", async () => {
    const { app } = appWithFakes();
    expect((await chat(app, { url: VIDEO }, { "content-type": "application/json; charset=utf-8" })).status).toBe(200);
  });
});

describe("the error table", () => {
  test("400 invalid_request for malformed JSON", async () => {
    await expectError(await chat(appWithFakes().app, '{"url": '), 400, "invalid_request");
  });

  test("408 request_timeout, with Connection: close, for a body that stops short of its end (issue 15 item 3)", async () => {
    const { app } = appWithFakes({ bodyTimeoutMs: 100 });
    for (const chunked of [false, true]) {
      const body = new ReadableStream<Uint8Array>({
        start: (controller) => controller.enqueue(new TextEncoder().encode('{"url": "h')),
      });
      const headers: Record<string, string> = { "content-type": "application/json", "x-api-key": TEST_KEY };
      if (!chunked) headers["content-length"] = "500";
      const started = performance.now();
      const response = await app.fetch(
        new Request(`${BASE}/chat`, { method: "POST", headers, body, duplex: "half" } as RequestInit),
      );
      expect(performance.now() - started).toBeLessThan(2_000);
      const error = await expectError(response, 408, "request_timeout");
      expect(error.message).toBe("The request body did not arrive within 0.1 s; send the whole body without pauses");
      expect(response.headers.get("connection")).toBe("close");
    }
  });

  test("400 for an empty body and for a body that is not an object", async () => {
    await expectError(await chat(appWithFakes().app, ""), 400, "invalid_request");
    const error = await expectError(await chat(appWithFakes().app, "[1,2]"), 400, "invalid_request");
    expect(error.message).toContain("JSON object");
  });

  test("400 names an unknown field, so a typo never silently gives English", async () => {
    const error = await expectError(
      await chat(appWithFakes().app, { url: VIDEO, langauge: "es" }),
      400,
      "invalid_request",
    );
    expect(error.message).toContain('"langauge"');
    expect(error.message).toContain("url, model, prompt, language, output_format");
  });

  test("400 lists the allowed values of an enum", async () => {
    const error = await expectError(
      await chat(appWithFakes().app, { url: VIDEO, language: "EN" }),
      400,
      "invalid_request",
    );
    expect(error.message).toContain("en, hi, es, pt, ru");
    expect(error.message).toContain('"EN"');
    await expectError(await chat(appWithFakes().app, { url: VIDEO, output_format: "html" }), 400, "invalid_request");
    await expectError(await chat(appWithFakes().app, { url: VIDEO, model: "gpt-4" }), 400, "invalid_request");
  });

  test("400 for wrong JSON types, with no coercion", async () => {
    await expectError(await chat(appWithFakes().app, { url: VIDEO, language: 1 }), 400, "invalid_request");
    await expectError(await chat(appWithFakes().app, { url: 42 }), 400, "invalid_request");
    await expectError(await chat(appWithFakes().app, { url: VIDEO, prompt: null }), 400, "invalid_request");
    await expectError(await chat(appWithFakes().app, { url: VIDEO, prompt: ["a"] }), 400, "invalid_request");
  });

  test("400 when url is missing", async () => {
    const error = await expectError(await chat(appWithFakes().app, { prompt: "hi" }), 400, "invalid_request");
    expect(error.message).toContain('"url"');
  });

  test("400 for a URL that is not a YouTube video, with no call to the transcript source", async () => {
    const { app, transcripts } = appWithFakes();
    const error = await expectError(
      await chat(app, { url: "https://youtube.com.evil.example/watch?v=GJLlxj_dtq8" }),
      400,
      "invalid_request",
    );
    expect(error.message).toContain("youtube.com.evil.example");
    expect(transcripts.calls.length).toBe(0);
  });

  test("401 unauthorized for a missing, empty or unknown key", async () => {
    const { app } = appWithFakes();
    await expectError(await chat(app, { url: VIDEO }, { "x-api-key": "" }), 401, "unauthorized");
    await expectError(await chat(app, { url: VIDEO }, { "x-api-key": "wrong" }), 401, "unauthorized");
    const noKey = await app.fetch(
      new Request(`${BASE}/chat`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }),
    );
    await expectError(noKey, 401, "unauthorized");
  });

  test("413 payload_too_large for a body over the limit", async () => {
    const response = await chat(appWithFakes().app, { url: VIDEO, prompt: "x".repeat(20_000) });
    await expectError(response, 413, "payload_too_large");
  });

  test("413 for a chunked body that grows past the limit", async () => {
    const { app } = appWithFakes();
    const chunk = new TextEncoder().encode("x".repeat(4096));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 10) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const request = new Request(
      `${BASE}/chat`,
      {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": TEST_KEY },
        body,
        duplex: "half",
      } as RequestInit,
    );
    await expectError(await app.fetch(request), 413, "payload_too_large");
    expect(sent).toBeLessThan(10);
  });

  test("415 unsupported_media_type for a body that is not JSON", async () => {
    await expectError(
      await chat(appWithFakes().app, { url: VIDEO }, { "content-type": "text/plain" }),
      415,
      "unsupported_media_type",
    );
    await expectError(
      await chat(appWithFakes().app, { url: VIDEO }, { "content-type": "application/x-www-form-urlencoded" }),
      415,
      "unsupported_media_type",
    );
  });

  test.each(
    [
      ["video_unavailable", 422],
      ["video_age_restricted", 422],
      ["video_unplayable", 422],
      ["transcript_unavailable", 422],
      ["upstream_error", 502],
      ["upstream_timeout", 504],
    ] as const,
  )("%s from the transcript source is %d", async (code, status) => {
    const transcripts = new FakeTranscripts();
    transcripts.failWith = code;
    await expectError(await chat(appWithFakes({ transcripts }).app, { url: VIDEO }), status, code);
  });

  test("503 upstream_blocked carries Retry-After", async () => {
    const transcripts = new FakeTranscripts();
    transcripts.failWith = "upstream_blocked";
    const response = await chat(appWithFakes({ transcripts }).app, { url: VIDEO });
    await expectError(response, 503, "upstream_blocked");
    expect(response.headers.get("retry-after")).toBe("30");
  });

  test("429 rate_limited with Retry-After and RateLimit headers once the key is over its limit", async () => {
    const { app } = appWithFakes({ limiter: new CountingLimiter(1) });
    const first = await chat(app, { url: VIDEO });
    expect(first.status).toBe(200);
    expect(first.headers.get("ratelimit-limit")).toBe("1");
    expect(first.headers.get("ratelimit-remaining")).toBe("0");
    const second = await chat(app, { url: VIDEO });
    await expectError(second, 429, "rate_limited");
    expect(second.headers.get("retry-after")).toBe("60");
    expect(second.headers.get("ratelimit-remaining")).toBe("0");
  });

  test("503 overloaded with Retry-After when work in flight is at its bound", async () => {
    const transcripts = new FakeTranscripts();
    transcripts.delayMs = 100;
    const { app } = appWithFakes({ transcripts, gate: createMemoryWorkGate({ maxInFlight: 1 }) });
    const [slow, refused] = await Promise.all([
      chat(app, { url: VIDEO, prompt: "one" }),
      chat(app, { url: VIDEO, prompt: "two" }),
    ]);
    expect(slow.status).toBe(200);
    await expectError(refused, 503, "overloaded");
    expect(refused.headers.get("retry-after")).toBeTruthy();
  });

  test("500 internal_error hides the bug's details", async () => {
    const writer = new FakeWriter();
    writer.failWith = "bug";
    const response = await chat(appWithFakes({ writer }).app, { url: VIDEO });
    const error = await expectError(response, 500, "internal_error");
    expect(error.message).not.toContain("secret");
    expect(error.message).not.toContain("/srv/app.ts");
  });
});

describe("the order of checks", () => {
  test("no key and a bad body gives 401", async () => {
    const response = await app().fetch(
      new Request(`${BASE}/chat`, { method: "POST", headers: { "content-type": "text/plain" }, body: "{bad" }),
    );
    await expectError(response, 401, "unauthorized");
  });

  test("no key and a huge body gives 401", async () => {
    const response = await app().fetch(
      new Request(`${BASE}/chat`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "x".repeat(50_000),
      }),
    );
    await expectError(response, 401, "unauthorized");
  });

  test("content type comes before size, and size before JSON", async () => {
    await expectError(
      await chat(app(), "x".repeat(50_000), { "content-type": "text/plain" }),
      415,
      "unsupported_media_type",
    );
    await expectError(await chat(app(), "{" + "x".repeat(50_000)), 413, "payload_too_large");
  });

  test("a bad request is refused before it costs the key a rate-limit token", async () => {
    const limiter = new CountingLimiter(5);
    const { app: limited } = appWithFakes({ limiter });
    await chat(limited, { url: VIDEO, langauge: "es" });
    await chat(limited, "{oops");
    expect(limiter.counts.get("k1") ?? 0).toBe(0);
  });
});

function app(): App {
  return appWithFakes().app;
}
