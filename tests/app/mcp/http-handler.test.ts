/** @module The `/mcp` endpoint in process, driven by the v2 SDK's client on either era and by raw requests. */
import { describe, expect, test } from "bun:test";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { ToolsCore } from "../../../src/app/compose/service.ts";
import { silentLogger } from "../../../src/app/log/logger.ts";
import { createMcpHttpHandler } from "../../../src/app/mcp/http-handler.ts";
import { createLiveStreams } from "../../../src/app/stream/live-streams.ts";
import { createRedisCallCancels } from "../../../src/adapters/redis/redis-call-cancels.ts";
import { AppError } from "../../../src/domain/errors.ts";
import type { AnswerSpec, CallCancels, RateLimiter } from "../../../src/domain/ports.ts";
import { createTranscriptReader } from "../../../src/domain/transcript-reading.ts";
import { chatWithFakes, CountingLimiter, FakeTranscripts, FakeWriter, openGate } from "../../support/fake/ports.ts";

const KEY = "mcp-test-key-0123";
const VIDEO = "https://youtu.be/GJLlxj_dtq8";
const ENDPOINT = "http://mcp.test/mcp";

type Handler = (request: Request) => Promise<Response>;

/** The endpoint on in-memory fakes. */
function endpoint(
  options: { writer?: FakeWriter; limiter?: RateLimiter; cancels?: CallCancels; corsOrigins?: string[] } = {},
) {
  const transcripts = new FakeTranscripts();
  const { chat, writer } = chatWithFakes({ transcripts, writer: options.writer });
  const tools: ToolsCore = {
    chat,
    transcripts: createTranscriptReader({ transcripts, gate: openGate, requestTimeoutMs: 5_000 }),
    apiKeys: { verify: async (key) => (key === KEY ? { id: "env:test", name: "test" } : undefined) },
    rateLimiter: options.limiter ?? new CountingLimiter(100),
    cancels: options.cancels ?? createRedisCallCancels(),
  };
  const calls = createLiveStreams();
  const handler = createMcpHttpHandler({
    tools,
    logger: silentLogger,
    maxBodyBytes: 4_096,
    bodyTimeoutMs: 200,
    requestTimeoutMs: 5_000,
    progressTimeoutMs: 5_000,
    keepAliveMs: 15_000,
    corsOrigins: options.corsOrigins,
    calls,
  });
  return { handler, transcripts, writer, calls };
}

type Era = "2026-07-28" | "2025-11-25";

/**
 * The SDK's client over HTTP, its requests handed to `pick()`'s handler (several stand for instances): pinned to
 * 2026-07-28 (`server/discover`, no handshake), or on its default `initialize` handshake (2025-11-25).
 */
async function connect(
  pick: () => Handler,
  headers: Record<string, string> = { "x-api-key": KEY },
  era: Era = "2026-07-28",
) {
  const transport = new StreamableHTTPClientTransport(new URL(ENDPOINT), {
    requestInit: { headers },
    fetch: (url, init) => pick()(new Request(url, init)),
  });
  const pinned = era === "2026-07-28" ? { versionNegotiation: { mode: { pin: era } } } : {};
  const client = new Client({ name: "test", version: "1.0.0" }, pinned);
  await client.connect(transport);
  expect(client.getNegotiatedProtocolVersion()).toBe(era);
  return { client, transport };
}

const post = (handler: Handler, body: string, headers: Record<string, string> = {}) =>
  handler(
    new Request(ENDPOINT, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      body,
    }),
  );

const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
});

/** A writer that waits until its call is aborted (or 5 s), telling the test its signal. */
function waitingWriter() {
  const writer = new FakeWriter();
  const seen = Promise.withResolvers<AbortSignal>();
  writer.write = async (spec: AnswerSpec) => {
    seen.resolve(spec.signal!);
    await new Promise((resolve) => {
      const timer = setTimeout(resolve, 5_000);
      spec.signal!.addEventListener("abort", () => resolve(clearTimeout(timer)), { once: true });
    });
    throw spec.signal!.reason ?? new Error("not aborted");
  };
  return { writer, signal: seen.promise };
}

describe("/mcp: who may call", () => {
  test("without a key, or with an unknown one: 401 with the contract's body, before the body is read", async () => {
    const { handler } = endpoint();
    let read = false;
    // No chunk is asked for before a reader asks (a high-water mark of 0).
    const body = new ReadableStream({ pull: () => void (read = true) }, { highWaterMark: 0 });
    const bare = await handler(
      new Request(ENDPOINT, { method: "POST", headers: { "content-type": "application/json" }, body }),
    );
    expect(bare.status).toBe(401);
    expect(bare.headers.get("www-authenticate")).toStartWith("Bearer");
    expect((await bare.json()).error.code).toBe("unauthorized");
    expect(read).toBe(false);
    const wrong = await post(handler, INITIALIZE, { authorization: "Bearer not-the-key" });
    expect(wrong.status).toBe(401);
    expect((await wrong.json()).error.message).toStartWith("Unknown API key");
  });

  test("with x-api-key and with Authorization: Bearer, the SDK's client lists both tools", async () => {
    const { handler } = endpoint();
    const ways: Record<string, string>[] = [{ "x-api-key": KEY }, { authorization: `Bearer ${KEY}` }];
    for (const headers of ways) {
      const { client } = await connect(() => handler, headers);
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["chat_about_video", "get_transcript"]);
      await client.close();
    }
  });

  test("a browser page of another origin is refused with 403; a listed one gets CORS and a preflight", async () => {
    const { handler } = endpoint({ corsOrigins: ["https://app.example"] });
    const foreign = await post(handler, INITIALIZE, { "x-api-key": KEY, origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    expect((await foreign.json()).error.message).toContain('"https://evil.example"');
    const listed = await post(handler, INITIALIZE, { "x-api-key": KEY, origin: "https://app.example" });
    expect(listed.status).toBe(200);
    expect(listed.headers.get("access-control-allow-origin")).toBe("https://app.example");
    expect(listed.headers.get("access-control-expose-headers")).toContain("mcp-session-id");
    await listed.body?.cancel();
    const preflight = await handler(
      new Request(ENDPOINT, {
        method: "OPTIONS",
        headers: { origin: "https://app.example", "access-control-request-method": "POST" },
      }),
    );
    expect(preflight.status).toBe(204);
    const allowed = preflight.headers.get("access-control-allow-headers")!.split(/,\s*/);
    // 2026-07-28 clients send Mcp-Method and Mcp-Name with MCP-Protocol-Version on every request.
    expect(allowed).toEqual(
      expect.arrayContaining(["authorization", "mcp-protocol-version", "mcp-method", "mcp-name", "mcp-session-id"]),
    );
  });
});

describe("/mcp: the transport", () => {
  test("another path is 404, another method 405 (no session to stream on GET)", async () => {
    const { handler } = endpoint();
    const other = await handler(new Request("http://mcp.test/chat", { method: "POST" }));
    expect(other.status).toBe(404);
    expect((await other.json()).error.code).toBe("not_found");
    const get = await handler(new Request(ENDPOINT, { headers: { "x-api-key": KEY, accept: "text/event-stream" } }));
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
  });

  test("the public port's body rules: 415, 413, 408, and a body that is not JSON is a JSON-RPC parse error", async () => {
    const { handler } = endpoint();
    expect((await post(handler, INITIALIZE, { "x-api-key": KEY, "content-type": "text/plain" })).status).toBe(415);
    expect((await post(handler, " ".repeat(5_000), { "x-api-key": KEY })).status).toBe(413);
    const slow = await handler(
      new Request(ENDPOINT, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": KEY },
        body: new ReadableStream({ pull: () => new Promise(() => {}) }),
      }),
    );
    expect(slow.status).toBe(408);
    const broken = await post(handler, "{not json", { "x-api-key": KEY });
    expect(broken.status).toBe(400);
    expect((await broken.json()).error.code).toBe(-32700);
  });

  test("initialize gives a session id; the response is the SDK's event stream with the request id", async () => {
    const { handler } = endpoint();
    const response = await post(handler, INITIALIZE, { "x-api-key": KEY, "x-request-id": "req-1" });
    expect(response.headers.get("content-type")).toStartWith("text/event-stream");
    expect(response.headers.get("mcp-session-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.headers.get("x-request-id")).toBe("req-1");
    expect(await response.text()).toContain('"serverInfo":{"name":"video-chat-service"');
  });
});

/** A 2026-07-28 request's body: the revision and the client in `_meta`. */
function modern(method: string, params: Record<string, unknown>) {
  const _meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  return JSON.stringify({ jsonrpc: "2.0", id: 3, method, params: { ...params, _meta } });
}

describe("/mcp: the 2026-07-28 standard headers", () => {
  const standard = { "x-api-key": KEY, "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call" };
  const call = modern("tools/call", { name: "get_transcript", arguments: { url: VIDEO } });

  test("headers that match the body are served; an Mcp-Name, Mcp-Method or version that does not is 400 -32020", async () => {
    const { handler, transcripts } = endpoint();
    const served = await post(handler, call, { ...standard, "mcp-name": "get_transcript" });
    expect(served.status).toBe(200);
    expect(await served.text()).toContain('"structuredContent"');
    const fetched = transcripts.calls.length;
    expect(fetched).toBe(1);
    const wrong: Record<string, string>[] = [
      { ...standard, "mcp-name": "chat_about_video" },
      { ...standard, "mcp-name": "get_transcript", "mcp-method": "tools/list" },
      { ...standard, "mcp-name": "get_transcript", "mcp-protocol-version": "2025-11-25" },
      { "x-api-key": KEY, "mcp-name": "get_transcript", "mcp-method": "tools/call" },
    ];
    for (const headers of wrong) {
      const refused = await post(handler, call, { ...headers, "x-request-id": "req-32020" });
      expect(refused.status).toBe(400);
      expect((await refused.json()).error.code).toBe(-32020);
      expect(refused.headers.get("x-request-id")).toBe("req-32020");
    }
    // Refused before any work: no transcript fetched for them.
    expect(transcripts.calls).toHaveLength(fetched);
  });

  test("a revision not served is 400 -32022 naming the ones that are; without a key, 401 first", async () => {
    const { handler } = endpoint();
    const future = modern("tools/list", {}).replace("2026-07-28", "2027-01-01");
    const refused = await post(handler, future, {
      ...standard,
      "mcp-method": "tools/list",
      "mcp-protocol-version": "2027-01-01",
    });
    expect(refused.status).toBe(400);
    expect((await refused.json()).error).toMatchObject({ code: -32022, data: { supported: ["2026-07-28"] } });
    const anonymous = await post(handler, call, {
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": "x",
    });
    expect(anonymous.status).toBe(401);
  });
});

describe.each(["2026-07-28", "2025-11-25"] as const)("/mcp: calls on %s", (era) => {
  test("chat_about_video answers with the seven fields and progress notifications", async () => {
    const { handler } = endpoint();
    const { client } = await connect(() => handler, undefined, era);
    const steps: number[] = [];
    const result = await client.callTool({ name: "chat_about_video", arguments: { url: VIDEO } }, {
      onprogress: (p) => steps.push(p.progress),
    });
    expect(Object.keys(result.structuredContent as object)).toHaveLength(7);
    expect(steps).toEqual([1]);
    await client.close();
  });

  test("the key's rate limit counts calls (not the handshake): past it, rate_limited", async () => {
    const limiter = new CountingLimiter(1);
    const { handler } = endpoint({ limiter });
    const { client } = await connect(() => handler, undefined, era);
    expect((await client.callTool({ name: "get_transcript", arguments: { url: VIDEO } })).isError).toBeFalsy();
    const refused = await client.callTool({ name: "get_transcript", arguments: { url: VIDEO } });
    expect((refused.content as { text: string }[])[0]!.text).toStartWith("rate_limited: This API key");
    expect([...limiter.counts.keys()]).toEqual(["env:test"]);
    await client.close();
  });

  test("the client closing its connection cancels the call", async () => {
    const waiting = waitingWriter();
    const { handler, calls } = endpoint({ writer: waiting.writer });
    const { client } = await connect(() => handler, undefined, era);
    const call = client.callTool({ name: "chat_about_video", arguments: { url: VIDEO } });
    const signal = await waiting.signal;
    await client.close();
    await expect(call).rejects.toThrow();
    while (!signal.aborted) await Bun.sleep(5);
    while (calls.count > 0) await Bun.sleep(5);
  });

  test("a shutdown that runs out of grace answers the call with overloaded before it is cut", async () => {
    const waiting = waitingWriter();
    const { handler, calls } = endpoint({ writer: waiting.writer });
    const { client } = await connect(() => handler, undefined, era);
    const call = client.callTool({ name: "chat_about_video", arguments: { url: VIDEO } });
    await waiting.signal;
    calls.interrupt(new AppError("overloaded", "The server is shutting down; send the request again"));
    const result = await call;
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0]!.text).toStartWith(
      "overloaded: The server is shutting down; send the request again.",
    );
    await client.close();
  });
});

describe("/mcp: cancellation as each era defines it", () => {
  test("notifications/cancelled sent to another instance cancels the call where it runs", async () => {
    const cancels = createRedisCallCancels();
    const waiting = waitingWriter();
    const one = endpoint({ writer: waiting.writer, cancels });
    const other = endpoint({ cancels });
    let turn = 0;
    const { client } = await connect(() => (turn++ % 2 === 0 ? one.handler : other.handler), undefined, "2025-11-25");
    const controller = new AbortController();
    turn = 0; // the call goes to the first instance, its cancellation to the other
    const call = client.callTool({ name: "chat_about_video", arguments: { url: VIDEO } }, {
      signal: controller.signal,
    });
    const signal = await waiting.signal;
    controller.abort("changed my mind");
    await expect(call).rejects.toThrow();
    while (!signal.aborted) await Bun.sleep(5);
    expect(signal.aborted).toBe(true);
    while (one.calls.count > 0) await Bun.sleep(5);
    await client.close();
  });

  test("on 2026-07-28 the client cancels by closing the call's response stream: the work stops", async () => {
    const waiting = waitingWriter();
    const { handler, calls } = endpoint({ writer: waiting.writer });
    const { client } = await connect(() => handler);
    const controller = new AbortController();
    const call = client.callTool({ name: "chat_about_video", arguments: { url: VIDEO } }, {
      signal: controller.signal,
      onprogress: () => {},
    });
    const signal = await waiting.signal;
    controller.abort("changed my mind");
    await expect(call).rejects.toThrow();
    while (!signal.aborted) await Bun.sleep(5);
    expect(signal.aborted).toBe(true);
    while (calls.count > 0) await Bun.sleep(5);
    await client.close();
  });
});
