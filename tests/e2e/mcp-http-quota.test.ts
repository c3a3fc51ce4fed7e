/** @module MCP over HTTP under a key's quota: tool calls are metered as /chat is, and refused once it is spent. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFileApiKeys } from "../../src/adapters/keys/file-api-keys.ts";
import { issueKey } from "../../src/adapters/keys/issued-api-keys.ts";
import { type FakeLlm, startFakeLlm } from "../support/fake/llm.ts";
import { type FakeYoutube, startFakeYoutube } from "../support/fake/youtube.ts";
import { VIDEOS, watchUrl } from "../support/fixtures.ts";
import { captionXml } from "../support/long-transcript.ts";
import { runKeys } from "../adapters/keys/keys-cli-process.ts";
import { connectHttp, mcpUrlOf, textOf } from "../support/mcp/http.ts";
import { postChat, type RunningService, startService, targetFromEnv } from "../support/service/process.ts";

let youtube: FakeYoutube;
let llm: FakeLlm;
let service: RunningService;
let keysDir: string;
/** An issued key allowed three requests a day, MCP calls and /chat alike. */
let quotaKey: string;
/** An issued key allowed 100 video minutes a day, its id, and the settings its usage report is read with. */
let pagesKey: string;
let pagesId: string;
let keysEnv: Record<string, string>;

beforeAll(async () => {
  youtube = startFakeYoutube();
  llm = startFakeLlm();
  keysDir = mkdtempSync(join(tmpdir(), "vcs-mcp-quota-"));
  const keysFile = join(keysDir, "api-keys.json");
  const issued = issueKey({ name: "metered agent", quota: "3req/day" });
  await createFileApiKeys({ path: keysFile }).add(issued.record);
  quotaKey = issued.key;
  const pages = issueKey({ name: "text pages", quota: "100min/day" });
  await createFileApiKeys({ path: keysFile }).add(pages.record);
  pagesKey = pages.key;
  pagesId = pages.record.id;
  keysEnv = { KEYS_FILE: keysFile };
  service = await startService({
    API_KEYS: "e2e-mcp-quota-admin-0123",
    KEYS_FILE: keysFile,
    MCP_PORT: "0",
    YOUTUBE_BASE_URL: youtube.origin,
    GROQ_API_KEY: "gsk_fake_mcp_quota",
    GROQ_BASE_URL: llm.baseUrl,
    GROQ_MODEL: "fake-model",
    ANSWER_CACHE_TTL_MS: "0",
  });
});
afterAll(async () => {
  await service?.stop();
  await youtube?.close();
  await llm?.close();
  if (keysDir) rmSync(keysDir, { recursive: true, force: true });
});

describe(`MCP over HTTP and a key's quota (${targetFromEnv()})`, () => {
  test(
    "a 3req/day key: a chat call, a transcript page and a /chat answer use it up; the next call is quota_exceeded without work",
    async () => {
      const { client } = await connectHttp(await mcpUrlOf(service), { authorization: `Bearer ${quotaKey}` });
      try {
        const chat = await client.callTool({ name: "chat_about_video", arguments: { url: watchUrl("normal") } });
        expect(chat.isError).toBeFalsy();
        const page = await client.callTool({ name: "get_transcript", arguments: { url: watchUrl("normal") } });
        expect(page.isError).toBeFalsy();
        const http = await postChat(service.url, { url: watchUrl("normal"), prompt: "And the screen?" }, {
          "x-api-key": quotaKey,
        });
        expect(http.status).toBe(200);
        expect(http.headers.get("quota-remaining")).toBe("0");
        const calls = llm.calls.length;
        const refused = await client.callTool({
          name: "chat_about_video",
          arguments: { url: watchUrl("normal"), prompt: "One more?" },
        });
        expect(refused.isError).toBe(true);
        expect(textOf(refused)).toStartWith("quota_exceeded: ");
        expect(llm.calls).toHaveLength(calls);
      } finally {
        await client.close();
      }
    },
    60_000,
  );

  test(
    "a transcript page denser than speech is charged its text: a 5-second-a-cue page of 1,000-character cues",
    async () => {
      // Cues of 1,000 characters 5 s apart: twelve times what a minute of speech holds.
      const cues = Array.from(
        { length: 40 },
        (_, i) => ({ start: i * 5, duration: 5, text: `${i}`.padEnd(1_000, " talk") }),
      );
      youtube.setCaption(VIDEOS.twoTracks.id, captionXml(cues));
      const { client } = await connectHttp(await mcpUrlOf(service), { authorization: `Bearer ${pagesKey}` });
      try {
        const page = await client.callTool({ name: "get_transcript", arguments: { url: watchUrl("twoTracks") } });
        expect(page.isError).toBeFalsy();
        const segments = (page.structuredContent as { segments: { start: number; duration: number; text: string }[] })
          .segments;
        const characters = segments.reduce((sum, segment) => sum + segment.text.length, 0);
        const seconds = segments.at(-1)!.start + segments.at(-1)!.duration - segments[0]!.start;
        const charged = Math.floor(characters / 1_000);
        expect(charged).toBeGreaterThan(Math.max(1, Math.floor(seconds / 60)));
        let minutes = 0;
        for (const until = Date.now() + 8_000; Date.now() < until && minutes === 0;) {
          const run = await runKeys(keysEnv, ["usage", "--json"], { entry: true });
          const rows = JSON.parse(run.stdout.trim().split("\n").at(-1)!) as { id: string; minutes: number }[];
          minutes = rows.find((row) => row.id === pagesId)?.minutes ?? 0;
          if (minutes === 0) await Bun.sleep(200);
        }
        expect(minutes).toBe(charged);
      } finally {
        await client.close();
        youtube.reset();
      }
    },
    60_000,
  );
});
