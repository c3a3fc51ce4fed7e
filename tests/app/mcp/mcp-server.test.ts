/** @module The SDK server wired to the tools, driven by the v2 SDK's client in memory (the 2025 era: the SDK's only one there). */
import { describe, expect, test } from "bun:test";
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { silentLogger } from "../../../src/app/log/logger.ts";
import { createMcpServer } from "../../../src/app/mcp/mcp-server.ts";
import { createChatService } from "../../../src/domain/chat.ts";
import type { AnswerSpec } from "../../../src/domain/ports.ts";
import { CountingLimiter, FakeTranscripts, FakeWriter, noCache, openGate } from "../../support/fake/ports.ts";

const URL = "https://www.youtube.com/watch?v=GJLlxj_dtq8";

/** The server on fakes, and a real SDK client talking to it in memory. */
async function connect(writer: FakeWriter = new FakeWriter()) {
  const chat = createChatService({
    transcripts: new FakeTranscripts(),
    writer,
    answers: noCache,
    answerTtlMs: 0,
    gate: openGate,
    requestTimeoutMs: 5_000,
  });
  const server = createMcpServer({
    chat,
    rateLimiter: new CountingLimiter(100),
    logger: silentLogger,
    maxArgumentBytes: 16_384,
    requestTimeoutMs: 5_000,
    progressTimeoutMs: 5_000,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(clientSide);
  return { client, close: () => client.close() };
}

describe("the MCP server", () => {
  test("lists one tool, chat_about_video, with input and output schemas", async () => {
    const { client, close } = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["chat_about_video"]);
    expect(tools[0]!.inputSchema.required).toEqual(["url"]);
    expect(tools[0]!.outputSchema?.required).toContain("video_duration");
    expect(client.getInstructions()).toContain("chat_about_video");
    await close();
  });

  test("a call returns the answer as text and structured content the client validates against the output schema", async () => {
    const { client, close } = await connect();
    await client.listTools(); // the client checks structured content against the listed output schema
    const result = await client.callTool({ name: "chat_about_video", arguments: { url: URL, language: "pt" } });
    expect(result.isError).toBeFalsy();
    expect(result.content).toEqual([{ type: "text", text: "answer to summary in pt as text" }]);
    expect(result.structuredContent).toMatchObject({ language: "pt", video_duration: "5 minutes" });
    await close();
  });

  test("an unknown tool is a protocol error naming the one tool", async () => {
    const { client, close } = await connect();
    await expect(client.callTool({ name: "get_transcript", arguments: {} })).rejects.toThrow(
      /the only tool is chat_about_video/,
    );
    await close();
  });

  test("a progress token gets progress notifications, increasing", async () => {
    const writer = new FakeWriter();
    const write = writer.write.bind(writer);
    writer.write = async (spec: AnswerSpec) => {
      spec.events?.progress({ stage: "reading", done: 0, total: 2 });
      spec.events?.progress({ stage: "reading", done: 1, total: 2 });
      spec.events?.progress({ stage: "reading", done: 2, total: 2 });
      spec.events?.progress({ stage: "writing" });
      return await write(spec);
    };
    const { client, close } = await connect(writer);
    const seen: { progress: number; total?: number }[] = [];
    await client.callTool({ name: "chat_about_video", arguments: { url: URL } }, {
      onprogress: ({ progress, total }) => seen.push({ progress, total }),
    });
    expect(seen).toEqual([{ progress: 1, total: undefined }, { progress: 2, total: 5 }, { progress: 3, total: 5 }, {
      progress: 4,
      total: 5,
    }, { progress: 5, total: 5 }]);
    await close();
  });

  test("notifications/cancelled cancels the work", async () => {
    const writer = new FakeWriter();
    let seen: AbortSignal | undefined;
    writer.write = async (spec) => {
      seen = spec.signal;
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      return { text: "late", usage: { calls: 1, inputTokens: 1, outputTokens: 1 } };
    };
    const { client, close } = await connect(writer);
    const controller = new AbortController();
    const call = client.callTool({ name: "chat_about_video", arguments: { url: URL } }, {
      signal: controller.signal,
    });
    while (!seen) await Bun.sleep(5);
    controller.abort("the user changed their mind");
    await expect(call).rejects.toThrow();
    await Bun.sleep(50);
    expect(seen.aborted).toBe(true);
    await close();
  });
});
