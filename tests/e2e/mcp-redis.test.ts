/** @module An MCP process and an HTTP instance sharing one Redis: caches and the rate limit. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { type FakeLlm, startFakeLlm } from "../support/fake/llm.ts";
import { type FakeYoutube, startFakeYoutube } from "../support/fake/youtube.ts";
import { watchUrl } from "../support/fixtures.ts";
import {
  commandFor,
  defaultCwd,
  postChat,
  type RunningService,
  startService,
  targetFromEnv,
} from "../support/service/process.ts";
import { dropPrefix, testRedisUrl, uniquePrefix } from "../support/redis-server.ts";

const target = targetFromEnv();
const redisUrl = testRedisUrl();
const STATE = { REDIS_URL: redisUrl, REDIS_KEY_PREFIX: uniquePrefix("e2e-mcp") };
const API_KEY = "e2e-mcp-redis-key-0123";
let youtube: FakeYoutube;
let llm: FakeLlm;
let http: RunningService;
let mcp: Client;

beforeAll(async () => {
  youtube = startFakeYoutube();
  llm = startFakeLlm();
  const env = {
    ...STATE,
    YOUTUBE_BASE_URL: youtube.origin,
    GROQ_API_KEY: "gsk_fake",
    GROQ_BASE_URL: llm.baseUrl,
    GROQ_MODEL: "fake-model",
    RATE_LIMIT: "2/min",
    LOG_FORMAT: "json",
    NO_COLOR: "1",
  };
  http = await startService({ ...env, API_KEYS: API_KEY });
  const [command, ...args] = commandFor(target, ["mcp"]);
  mcp = new Client({ name: "e2e", version: "1.0.0" });
  await mcp.connect(
    new StdioClientTransport({
      command: command!,
      args,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", ...env },
      cwd: defaultCwd(target),
      stderr: "ignore",
    }),
  );
});
afterAll(async () => {
  await mcp?.close();
  await http?.stop("SIGKILL");
  await youtube?.close();
  await llm?.close();
  await dropPrefix(redisUrl, STATE.REDIS_KEY_PREFIX);
});

describe(`an MCP process and an HTTP instance on one Redis (${target})`, () => {
  test("an answer made over MCP is the HTTP instance's cached answer: the model is called once", async () => {
    const result = await mcp.callTool({
      name: "chat_about_video",
      arguments: { url: watchUrl("normal"), prompt: "What about the keyboard? (shared)" },
    });
    expect(result.isError).toBeFalsy();
    const response = await postChat(
      http.url,
      { url: watchUrl("normal"), prompt: "What about the keyboard? (shared)" },
      { "x-api-key": API_KEY },
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(result.structuredContent as object);
    expect(llm.calls).toHaveLength(1);
  }, 60_000);

  test("RATE_LIMIT applies to MCP calls too, with the retry time, and not to the HTTP key's budget", async () => {
    // The first test's call was the first of two.
    expect((await mcp.callTool({ name: "chat_about_video", arguments: { url: watchUrl("normal") } })).isError)
      .toBeFalsy();
    const refused = await mcp.callTool({ name: "chat_about_video", arguments: { url: watchUrl("normal") } });
    expect(refused.isError).toBe(true);
    expect((refused.content as { text: string }[])[0]!.text).toMatch(/^rate_limited: .* Retry after \d+ seconds?\.$/);
    const response = await postChat(http.url, { url: watchUrl("normal") }, { "x-api-key": API_KEY });
    expect(response.status).toBe(200);
  }, 60_000);
});
