/** @module `server mcp` end to end: the SDK's stdio client spawns each target against the loopback YouTube and LLM. */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { spawn } from "bun";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { type FakeLlm, startFakeLlm } from "../support/fake/llm.ts";
import { type FakeYoutube, startFakeYoutube } from "../support/fake/youtube.ts";
import { VIDEOS, watchUrl } from "../support/fixtures.ts";
import { captionXml, generateCues } from "../support/long-transcript.ts";
import { commandFor, defaultCwd, targetFromEnv } from "../support/service/process.ts";
import { GROQ_KEY } from "./llm-harness.ts";

const target = targetFromEnv();
const [command, ...args] = commandFor(target, ["mcp"]);
const THREE_HOURS = 3 * 3600;
const isPart = (text: string) => /Part \d+ of \d+ of a long video's transcript/.test(text);

let youtube: FakeYoutube;
let llm: FakeLlm;
let env: Record<string, string>;
let client: Client | undefined;
let stderr = "";

beforeAll(() => {
  youtube = startFakeYoutube();
  llm = startFakeLlm();
  // No API key anywhere: stdio needs none. Caches off, so each test sees its own fakes; a call size that splits three hours into parts.
  // RATE_LIMIT=none: the file's one client pages through long videos, and its subject is not the limit (60/min unset).
  env = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "/tmp",
    NO_COLOR: "1",
    LOG_FORMAT: "json",
    RATE_LIMIT: "none",
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
  };
});
afterAll(async () => {
  await client?.close();
  await youtube?.close();
  await llm?.close();
});
beforeEach(() => {
  youtube.reset();
  llm.reset();
});

/** One MCP client for the file, spawning the service as an agent's host would. */
async function connected(): Promise<Client> {
  if (client) return client;
  const transport = new StdioClientTransport({ command: command!, args, env, cwd: defaultCwd(target), stderr: "pipe" });
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  client = new Client({ name: "e2e", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

const textOf = (result: object): string => ((result as { content: { text: string }[] }).content[0]!).text;

describe(`server mcp over stdio (${target})`, () => {
  test("initialize and tools/list show chat_about_video: url required, the five languages", async () => {
    const mcp = await connected();
    expect(mcp.getServerVersion()?.name).toBe("video-chat-service");
    expect(mcp.getServerCapabilities()?.tools).toBeDefined();
    const { tools } = await mcp.listTools();
    expect(tools.map((t) => t.name)).toEqual(["chat_about_video", "get_transcript"]);
    const tool = tools[0]!;
    expect(tool.name).toBe("chat_about_video");
    expect(tool.inputSchema.required).toEqual(["url"]);
    expect((tool.inputSchema.properties!.language as { enum: string[] }).enum).toEqual(["en", "hi", "es", "pt", "ru"]);
    expect(tool.outputSchema?.required).toHaveLength(7);
  }, 60_000);

  test("a Spanish question about the 5-minute video: text, and the seven fields as structured content", async () => {
    const mcp = await connected();
    const result = await mcp.callTool({
      name: "chat_about_video",
      arguments: { url: watchUrl("normal"), prompt: "¿Qué opina del teclado?", language: "es" },
    });
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
    expect(body).toMatchObject({
      url: watchUrl("normal"),
      model: "chat-1.0",
      prompt: "¿Qué opina del teclado?",
      language: "es",
      output_format: "text",
      video_duration: "5 minutes",
    });
    expect(textOf(result)).toBe(body.output!);
    expect(body.output!.length).toBeGreaterThan(0);
    expect(llm.calls).toHaveLength(1);
  }, 60_000);

  test("a video with captions disabled is a result with isError naming transcript_unavailable", async () => {
    const mcp = await connected();
    const result = await mcp.callTool({ name: "chat_about_video", arguments: { url: watchUrl("captionsDisabled") } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toStartWith("transcript_unavailable: ");
    expect(llm.calls).toHaveLength(0);
  }, 60_000);

  test("bad arguments are refused with the HTTP 400 wording, and nothing is fetched", async () => {
    const mcp = await connected();
    const typo = await mcp.callTool({
      name: "chat_about_video",
      arguments: { url: watchUrl("normal"), langauge: "es" },
    });
    expect(typo.isError).toBe(true);
    expect(textOf(typo)).toStartWith(
      'invalid_request: Unknown field "langauge"; allowed fields: url, model, prompt, language, output_format',
    );
    const host = await mcp.callTool({
      name: "chat_about_video",
      arguments: { url: `https://youtube.com.evil.example/watch?v=${VIDEOS.normal.id}` },
    });
    expect(textOf(host)).toStartWith('invalid_request: Field "url" must be a YouTube video URL');
    const missing = await mcp.callTool({ name: "chat_about_video", arguments: {} });
    expect(textOf(missing)).toStartWith('invalid_request: Field "url" is required');
    expect(youtube.seen).toHaveLength(0);
  }, 60_000);

  test("a 3-hour summary with a progressToken sends increasing progress notifications, with a total", async () => {
    youtube.setCaption(VIDEOS.normal.id, captionXml(generateCues(THREE_HOURS)));
    llm.respondWith((call) => ({
      content: isPart(call.text)
        ? "- [0:00] The reviewer covers one aspect of the device."
        : "The reviewer likes the device [0:00].",
      delayMs: 20,
    }));
    const mcp = await connected();
    const seen: { progress: number; total?: number }[] = [];
    const result = await mcp.callTool({ name: "chat_about_video", arguments: { url: watchUrl("normal") } }, {
      onprogress: (p) => seen.push(p),
      timeout: 90_000,
      resetTimeoutOnProgress: true,
    });
    expect(result.isError).toBeFalsy();
    expect(llm.calls.filter((call) => isPart(call.text)).length).toBeGreaterThanOrEqual(2);
    expect(seen.length).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.progress).toBeGreaterThan(seen[i - 1]!.progress);
    expect(seen.at(-1)!.total).toBeGreaterThanOrEqual(seen.at(-1)!.progress);
    expect(stderr).toContain('"event":"mcp_call"');
  }, 120_000);

  test("notifications/cancelled cancels the work: the model's call is closed", async () => {
    llm.respondWith(() => ({ content: "Too late [0:00].", delayMs: 20_000 }));
    const mcp = await connected();
    const controller = new AbortController();
    const call = mcp.callTool(
      { name: "chat_about_video", arguments: { url: watchUrl("normal"), prompt: "A question to cancel" } },
      { signal: controller.signal },
    );
    const until = Date.now() + 20_000;
    while (llm.calls.length === 0 && Date.now() < until) await Bun.sleep(20);
    expect(llm.calls).toHaveLength(1);
    controller.abort("the user changed their mind");
    await expect(call).rejects.toThrow();
    while (llm.calls[0]!.closedAt === undefined && Date.now() < until) await Bun.sleep(20);
    expect(llm.calls[0]!.closedAt).toBeDefined();
  }, 60_000);
});

describe(`server mcp's stdout and exit (${target})`, () => {
  test("stdout carries only JSON-RPC lines, and the process exits 0 when stdin closes", async () => {
    const child = spawn([command!, ...args], {
      cwd: defaultCwd(target),
      env,
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
    });
    const messages = [
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
      },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 2, method: "tools/list" },
      {
        jsonrpc: "2.0",
        id: 3,
        method: "tools/call",
        params: {
          name: "chat_about_video",
          arguments: { url: watchUrl("normal"), language: "es" },
          _meta: { progressToken: "p1" },
        },
      },
    ];
    child.stdin.write(messages.map((m) => JSON.stringify(m)).join("\n") + "\n");
    await child.stdin.flush();
    // stdin closes once the call is answered: the process must finish and exit by itself.
    const stdout = child.stdout.getReader();
    let raw = "";
    const decoder = new TextDecoder();
    while (!raw.includes('"id":3')) {
      const { value, done } = await stdout.read();
      if (done) break;
      raw += decoder.decode(value, { stream: true });
    }
    await child.stdin.end();
    const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
    for (;;) {
      const { value, done } = await stdout.read();
      if (done) break;
      raw += decoder.decode(value);
    }
    const code = await child.exited;
    clearTimeout(timer);
    const logs = await new Response(child.stderr).text();
    expect(code).toBe(0);
    const lines = raw.split("\n").filter((line) => line !== "");
    expect(raw.endsWith("\n")).toBe(true);
    for (const line of lines) expect(JSON.parse(line).jsonrpc).toBe("2.0");
    const ids = lines.map((line) => JSON.parse(line).id).filter((id) => id !== undefined);
    expect(ids).toEqual([1, 2, 3]);
    expect(lines.some((line) => JSON.parse(line).method === "notifications/progress")).toBe(true);
    // The logs went to stderr, the last one on the way out.
    expect(logs).toContain('"event":"mcp_ready"');
    expect(logs).toContain('"event":"mcp_stopping"');
  }, 60_000);

  test(
    "a JSON line that is not JSON-RPC is logged to stderr, one not JSON is skipped; the server goes on",
    async () => {
      const child = spawn([command!, ...args], {
        cwd: defaultCwd(target),
        env,
        stdin: "pipe",
        stdout: "pipe",
        stderr: "pipe",
      });
      child.stdin.write('not json at all\n{"hello":"world"}\n{"jsonrpc":"2.0","id":7,"method":"ping"}\n');
      await child.stdin.end();
      const [stdout, logs, code] = await Promise.all([
        new Response(child.stdout).text(),
        new Response(child.stderr).text(),
        child.exited,
      ]);
      expect(code).toBe(0);
      expect(stdout.trim().split("\n").map((line) => JSON.parse(line))).toEqual([{
        jsonrpc: "2.0",
        id: 7,
        result: {},
      }]);
      expect(logs).toContain('"event":"mcp_protocol_error"');
    },
    60_000,
  );

  test("wrong settings stop it with exit 2, the problems on stderr and nothing on stdout", async () => {
    const child = spawn([command!, ...args], {
      cwd: defaultCwd(target),
      env: { ...env, REQUEST_TIMEOUT_MS: "soon", LLM_CONCURRENCY: "-1" },
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
    });
    const [stdout, logs, code] = await Promise.all([
      new Response(child.stdout).text(),
      new Response(child.stderr).text(),
      child.exited,
    ]);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(logs).toContain("REQUEST_TIMEOUT_MS");
    expect(logs).toContain("LLM_CONCURRENCY");
  }, 60_000);
});
