/** @module Two instances on one Redis behind no sticky routing: an MCP client whose requests alternate between them. */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { type FakeLlm, startFakeLlm } from "../support/fake/llm.ts";
import { type FakeYoutube, startFakeYoutube } from "../support/fake/youtube.ts";
import { VIDEOS, watchUrl } from "../support/fixtures.ts";
import { captionXml, generateCues } from "../support/long-transcript.ts";
import { cancelWhileModelWorks, connectHttp, mcpUrlOf, textOf } from "../support/mcp/http.ts";
import { type RunningService, runToExit, startService, targetFromEnv } from "../support/service/process.ts";
import { dropPrefix, testRedisUrl, uniquePrefix } from "../support/redis-server.ts";

const target = targetFromEnv();
const redisUrl = testRedisUrl();
const STATE = { REDIS_URL: redisUrl, REDIS_KEY_PREFIX: uniquePrefix("e2e-mcp-http") };
const API_KEY = "e2e-mcp-two-instances-key";
let youtube: FakeYoutube;
let llm: FakeLlm;
let instances: RunningService[] = [];
let urls: string[] = [];

beforeAll(async () => {
  youtube = startFakeYoutube();
  llm = startFakeLlm();
  const env = {
    ...STATE,
    API_KEYS: API_KEY,
    MCP_PORT: "0",
    YOUTUBE_BASE_URL: youtube.origin,
    GROQ_API_KEY: "gsk_fake",
    GROQ_BASE_URL: llm.baseUrl,
    GROQ_MODEL: "fake-model",
    LLM_TOKENS_PER_MINUTE: "100000000",
    LLM_REQUESTS_PER_MINUTE: "1000000",
  };
  instances = await Promise.all([startService(env), startService(env)]);
  urls = await Promise.all(instances.map((instance) => mcpUrlOf(instance)));
});
afterAll(async () => {
  await Promise.all(instances.map((instance) => instance.stop()));
  await youtube?.close();
  await llm?.close();
  await dropPrefix(redisUrl, STATE.REDIS_KEY_PREFIX);
});
beforeEach(() => {
  youtube.reset();
  llm.reset();
});

describe(`two instances on one Redis, no sticky routing (${target})`, () => {
  test(
    "a client whose requests alternate between them lists, answers, and reads a long transcript page by page",
    async () => {
      const cues = generateCues(3 * 3600);
      youtube.setCaption(VIDEOS.normal.id, captionXml(cues));
      const { client, sent } = await connectHttp(urls, { "x-api-key": API_KEY });
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["chat_about_video", "get_transcript"]);
      const read: { start: number; duration: number; text: string }[] = [];
      let next: number | undefined = 0;
      while (next !== undefined) {
        const result = await client.callTool({
          name: "get_transcript",
          arguments: { url: watchUrl("normal"), from_seconds: next },
        });
        expect(result.isError).toBeFalsy();
        const page = result.structuredContent as { segments: typeof read; next_from_seconds?: number };
        read.push(...page.segments);
        next = page.next_from_seconds;
      }
      expect(read).toEqual(cues);
      // One transcript fetch for all the pages, on both instances: the cache is shared through Redis.
      expect(youtube.count("caption")).toBe(1);
      llm.respondWith(() => ({ content: "The reviewer likes the device [0:00].", delayMs: 10 }));
      const first = await client.callTool({ name: "chat_about_video", arguments: { url: watchUrl("normal") } });
      const calls = llm.calls.length;
      expect(calls).toBeGreaterThan(0);
      // The same question on the other instance is the first one's answer, from the cache both share.
      const second = await client.callTool({ name: "chat_about_video", arguments: { url: watchUrl("normal") } });
      expect(first.structuredContent).toEqual(second.structuredContent as object);
      expect(Object.keys(first.structuredContent as object)).toHaveLength(7);
      expect(llm.calls).toHaveLength(calls);
      expect(new Set(sent)).toEqual(new Set(urls));
      expect(sent.filter((url) => url === urls[0]).length).toBeGreaterThan(5);
      expect(sent.filter((url) => url === urls[1]).length).toBeGreaterThan(5);
      await client.close();
    },
    120_000,
  );

  test("a key's rate limit is one budget over both instances", async () => {
    const created = await runToExit(STATE, {
      args: ["keys", "create", "--name", "limited agent", "--rate-limit", "3/min", "--json"],
    });
    expect(created.code).toBe(0);
    const { key } = JSON.parse(created.output.split("\n").find((line) => line.startsWith("{"))!) as { key: string };
    const { client, sent } = await connectHttp(urls, { authorization: `Bearer ${key}` });
    const results = [];
    for (let i = 0; i < 4; i++) {
      results.push(await client.callTool({ name: "get_transcript", arguments: { url: watchUrl("twoTracks") } }));
    }
    expect(results.slice(0, 3).every((result) => !result.isError)).toBe(true);
    expect(textOf(results[3]!)).toStartWith("rate_limited: This API key is over its rate limit.");
    expect(new Set(sent.slice(-4))).toEqual(new Set(urls));
    await client.close();
  }, 60_000);

  test("notifications/cancelled (2025-11-25) sent to the other instance cancels the call where it runs", async () => {
    llm.respondWith(() => ({ content: "Too late [0:00].", delayMs: 20_000 }));
    const { client, sent } = await connectHttp(urls, { "x-api-key": API_KEY }, "2025-11-25");
    const controller = new AbortController();
    const call = client.callTool(
      { name: "chat_about_video", arguments: { url: watchUrl("twoTracks"), prompt: "A question to cancel elsewhere" } },
      { signal: controller.signal },
    );
    expect(await cancelWhileModelWorks(llm, call, () => controller.abort("the user changed their mind")))
      .toBeDefined();
    // The call went to one instance, its cancellation to the other.
    expect(sent.at(-1)).not.toBe(sent.at(-2));
    await client.close();
  }, 60_000);
});
