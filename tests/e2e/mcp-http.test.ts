/** @module MCP over Streamable HTTP end to end: the SDK's HTTP client against each target, with API keys. */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFileApiKeys } from "../../src/adapters/keys/file-api-keys.ts";
import { issueKey } from "../../src/adapters/keys/issued-api-keys.ts";
import { type FakeLlm, startFakeLlm } from "../support/fake/llm.ts";
import { type FakeYoutube, startFakeYoutube } from "../support/fake/youtube.ts";
import { VIDEOS, watchUrl } from "../support/fixtures.ts";
import { captionXml, generateCues } from "../support/long-transcript.ts";
import { cancelWhileModelWorks, connectHttp, mcpUrlOf, textOf } from "../support/mcp/http.ts";
import { rawRequest } from "../support/raw-http.ts";
import { type RunningService, startService, targetFromEnv } from "../support/service/process.ts";
import { GROQ_KEY } from "./llm-harness.ts";

const target = targetFromEnv();
const API_KEY = "e2e-mcp-http-key-0123";
const THREE_HOURS = 3 * 3600;
const PAGE_MAX_CHARS = 20_000;
const isPart = (text: string) => /Part \d+ of \d+ of a long video's transcript/.test(text);

let youtube: FakeYoutube;
let llm: FakeLlm;
let service: RunningService;
let mcpUrl: string;
let keysDir: string;
/** An issued key with a rate limit of its own (2 a minute). */
let limitedKey: string;

beforeAll(async () => {
  youtube = startFakeYoutube();
  llm = startFakeLlm();
  keysDir = mkdtempSync(join(tmpdir(), "vcs-mcp-http-"));
  const keysFile = join(keysDir, "api-keys.json");
  const issued = issueKey({ name: "limited agent", rateLimit: "2/min" });
  await createFileApiKeys({ path: keysFile }).add(issued.record);
  limitedKey = issued.key;
  // Caches off, so each test sees its own fakes; a call size that splits three hours into parts.
  service = await startService({
    API_KEYS: API_KEY,
    KEYS_FILE: keysFile,
    MCP_PORT: "0",
    BODY_TIMEOUT_MS: "1000",
    YOUTUBE_BASE_URL: youtube.origin,
    GROQ_API_KEY: GROQ_KEY,
    GROQ_BASE_URL: llm.baseUrl,
    GROQ_MODEL: "fake-model",
    ANSWER_CACHE_TTL_MS: "0",
    TRANSCRIPT_CACHE_TTL_MS: "0",
    LLM_CONCURRENCY: "3",
    LLM_INPUT_TOKEN_BUDGET: "4000",
    LLM_TOKENS_PER_MINUTE: "100000000",
    LLM_REQUESTS_PER_MINUTE: "1000000",
  });
  mcpUrl = await mcpUrlOf(service);
});
afterAll(async () => {
  await service?.stop();
  await youtube?.close();
  await llm?.close();
  if (keysDir) rmSync(keysDir, { recursive: true, force: true });
});
beforeEach(() => {
  youtube.reset();
  llm.reset();
});

type Page = { segments: { start: number; duration: number; text: string }[]; next_from_seconds?: number };

describe(`MCP over Streamable HTTP (${target}): who may call`, () => {
  test("without a key: 401, before any MCP message is read; the SDK's client cannot connect", async () => {
    const response = await fetch(mcpUrl, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(response.status).toBe(401);
    expect((await response.json()).error.code).toBe("unauthorized");
    // The SDK's SdkHttpError carries the status, on either era.
    for (const era of ["2026-07-28", "2025-11-25"] as const) {
      await expect(connectHttp(mcpUrl, {}, era)).rejects.toMatchObject({ status: 401 });
      await expect(connectHttp(mcpUrl, { authorization: "Bearer e2e-wrong-key-000" }, era)).rejects.toMatchObject({
        status: 401,
      });
    }
  }, 60_000);

  test("with x-api-key and with Authorization: Bearer, both tools are listed", async () => {
    const ways: Record<string, string>[] = [{ "x-api-key": API_KEY }, { authorization: `Bearer ${API_KEY}` }];
    for (const headers of ways) {
      const { client } = await connectHttp(mcpUrl, headers);
      expect(client.getServerVersion()?.name).toBe("video-chat-service");
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(["chat_about_video", "get_transcript"]);
      await client.close();
    }
  }, 60_000);

  test("a browser page of another origin is refused with 403", async () => {
    const response = await fetch(mcpUrl, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "x-api-key": API_KEY,
        origin: "https://evil.example",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(response.status).toBe(403);
  }, 60_000);

  test(
    "the public port's body limit and body time limit apply: 413 over 16 KiB, 408 for a body that stops",
    async () => {
      const headers = {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "x-api-key": API_KEY,
      };
      const large = await fetch(mcpUrl, { method: "POST", headers, body: " ".repeat(16_385) });
      expect(large.status).toBe(413);
      expect((await large.json()).error.code).toBe("payload_too_large");
      const port = Number(new URL(mcpUrl).port);
      const head = `POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n` +
        `x-api-key: ${API_KEY}\r\ncontent-length: 100\r\n\r\n{"jsonrpc":`;
      const started = performance.now();
      const stalled = await rawRequest(port, head, { timeoutMs: 10_000 });
      expect(stalled.status).toBe(408);
      expect(JSON.parse(stalled.body.toString()).error.code).toBe("request_timeout");
      expect(performance.now() - started).toBeLessThan(5_000);
    },
    60_000,
  );

  test("/mcp on the public port is 404, and the public port keeps its one operation", async () => {
    const response = await fetch(`${service.url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": API_KEY },
      body: "{}",
    });
    expect(response.status).toBe(404);
    expect((await response.json()).error.code).toBe("not_found");
  }, 60_000);
});

describe(`MCP over Streamable HTTP (${target}): the tools`, () => {
  test("chat_about_video answers with its 7-field structured content and progress notifications", async () => {
    youtube.setCaption(VIDEOS.normal.id, captionXml(generateCues(THREE_HOURS)));
    llm.respondWith((call) => ({
      content: isPart(call.text)
        ? "- [0:00] The reviewer covers one aspect of the device."
        : "The reviewer likes the device [0:00].",
      delayMs: 20,
    }));
    const { client } = await connectHttp(mcpUrl, { "x-api-key": API_KEY });
    const seen: { progress: number; total?: number }[] = [];
    const result = await client.callTool(
      { name: "chat_about_video", arguments: { url: watchUrl("normal") } },
      {
        onprogress: (p) => seen.push(p),
        timeout: 90_000,
        resetTimeoutOnProgress: true,
      },
    );
    expect(result.isError).toBeFalsy();
    const body = result.structuredContent as Record<string, string>;
    expect(Object.keys(body).sort()).toEqual([
      "language",
      "model",
      "output",
      "output_format",
      "prompt",
      "url",
      "video_duration",
    ]);
    expect(body).toMatchObject({ url: watchUrl("normal"), model: "chat-1.0", video_duration: "5 minutes" });
    expect(textOf(result)).toBe(body.output!);
    expect(seen.length).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.progress).toBeGreaterThan(seen[i - 1]!.progress);
    expect(seen.at(-1)!.total).toBeGreaterThanOrEqual(seen.at(-1)!.progress);
    await client.close();
  }, 120_000);

  test("get_transcript returns a short video's timed transcript in one page", async () => {
    const { client } = await connectHttp(mcpUrl, { authorization: `Bearer ${API_KEY}` });
    const result = await client.callTool({ name: "get_transcript", arguments: { url: watchUrl("normal") } });
    expect(result.isError).toBeFalsy();
    const page = result.structuredContent as Page & Record<string, unknown>;
    expect(page).toMatchObject({ language: "en", kind: "manual", video_duration: "5 minutes", duration_seconds: 316 });
    expect(page.next_from_seconds).toBeUndefined();
    expect(page.segments).toEqual([
      { start: 0, duration: 1.54, text: "Hey, this is just a test" },
      { start: 1.54, duration: 4.16, text: "this is not the original transcript" },
      { start: 5.7, duration: 3.239, text: "just something shorter, I made up for testing" },
    ]);
    expect(textOf(result).split("\n")).toEqual([
      "[0:00] Hey, this is just a test",
      "[0:01] this is not the original transcript",
      "[0:05] just something shorter, I made up for testing",
    ]);
    await client.close();
  }, 60_000);

  test(
    "a 3-hour video comes in pages under 20,000 characters that chain to its end without gap or overlap",
    async () => {
      const cues = generateCues(THREE_HOURS);
      youtube.setCaption(VIDEOS.normal.id, captionXml(cues));
      const { client } = await connectHttp(mcpUrl, { "x-api-key": API_KEY });
      const read: Page["segments"] = [];
      let next: number | undefined = 0;
      let pages = 0;
      while (next !== undefined) {
        const result = await client.callTool({
          name: "get_transcript",
          arguments: { url: watchUrl("normal"), from_seconds: next },
        });
        expect(result.isError).toBeFalsy();
        expect(JSON.stringify({ content: result.content, structuredContent: result.structuredContent }).length)
          .toBeLessThanOrEqual(PAGE_MAX_CHARS);
        const page = result.structuredContent as Page;
        read.push(...page.segments);
        next = page.next_from_seconds;
        if (++pages > 100) throw new Error("the pages do not end");
      }
      expect(pages).toBeGreaterThan(5);
      expect(read).toEqual(cues);
      await client.close();
    },
    120_000,
  );

  test(
    "a language: its track, YouTube's translation when it has none, else the video's own; the result says which",
    async () => {
      youtube.setCaption(VIDEOS.normal.id, captionXml([{ start: 0, duration: 2, text: "Bonjour à tous" }]), "fr");
      const { client } = await connectHttp(mcpUrl, { "x-api-key": API_KEY });
      const call = (language: string) =>
        client.callTool({ name: "get_transcript", arguments: { url: watchUrl("normal"), language } });
      expect((await call("de")).structuredContent).toMatchObject({ language: "de", language_source: "requested" });
      const french = await call("fr");
      expect(french.structuredContent).toMatchObject({ language: "fr", language_source: "translated" });
      expect(textOf(french)).toBe("[0:00] Bonjour à tous");
      expect(youtube.seen.some((s) => s.endpoint === "caption" && s.query.tlang === "fr")).toBe(true);
      expect((await call("sw")).structuredContent).toMatchObject({ language_source: "original" });
      await client.close();
    },
    60_000,
  );

  test("refusals are tool errors with the contract's codes", async () => {
    const { client } = await connectHttp(mcpUrl, { "x-api-key": API_KEY });
    const none = await client.callTool({ name: "get_transcript", arguments: { url: watchUrl("captionsDisabled") } });
    expect(none.isError).toBe(true);
    expect(textOf(none)).toStartWith("transcript_unavailable: ");
    const bad = await client.callTool({ name: "get_transcript", arguments: { url: watchUrl("normal"), lang: "de" } });
    expect(textOf(bad)).toStartWith('invalid_request: Unknown field "lang"');
    await client.close();
  }, 60_000);

  test("a key's rate limit refuses the call past it with rate_limited", async () => {
    const { client } = await connectHttp(mcpUrl, { "x-api-key": limitedKey });
    for (let i = 0; i < 2; i++) {
      expect((await client.callTool({ name: "get_transcript", arguments: { url: watchUrl("normal") } })).isError)
        .toBeFalsy();
    }
    const refused = await client.callTool({ name: "chat_about_video", arguments: { url: watchUrl("normal") } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/^rate_limited: This API key is over its rate limit\. Retry after \d+ seconds?\.$/);
    expect(llm.calls).toHaveLength(0);
    await client.close();
  }, 60_000);

  test("notifications/cancelled (2025-11-25) cancels the work: the model's call is closed", async () => {
    llm.respondWith(() => ({ content: "Too late [0:00].", delayMs: 20_000 }));
    const { client } = await connectHttp(mcpUrl, { "x-api-key": API_KEY }, "2025-11-25");
    const controller = new AbortController();
    const call = client.callTool(
      { name: "chat_about_video", arguments: { url: watchUrl("normal"), prompt: "A question to cancel" } },
      { signal: controller.signal },
    );
    expect(await cancelWhileModelWorks(llm, call, () => controller.abort("the user changed their mind")))
      .toBeDefined();
    await client.close();
  }, 60_000);

  test("on 2026-07-28 the client cancels by closing the call's stream: the model's call is closed", async () => {
    llm.respondWith(() => ({ content: "Too late [0:00].", delayMs: 20_000 }));
    const { client } = await connectHttp(mcpUrl, { "x-api-key": API_KEY }, "2026-07-28");
    const controller = new AbortController();
    const call = client.callTool(
      { name: "chat_about_video", arguments: { url: watchUrl("normal"), prompt: "A question to cancel, 2026" } },
      { signal: controller.signal },
    );
    expect(await cancelWhileModelWorks(llm, call, () => controller.abort("the user changed their mind")))
      .toBeDefined();
    await client.close();
  }, 60_000);

  test("the client closing its connection cancels the work too", async () => {
    llm.respondWith(() => ({ content: "Too late [0:00].", delayMs: 20_000 }));
    const { client } = await connectHttp(mcpUrl, { "x-api-key": API_KEY });
    const call = client.callTool({
      name: "chat_about_video",
      arguments: { url: watchUrl("normal"), prompt: "A question whose asker leaves" },
    });
    expect(await cancelWhileModelWorks(llm, call, () => client.close())).toBeDefined();
  }, 60_000);
});
