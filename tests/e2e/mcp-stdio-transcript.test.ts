/** @module `server mcp` serves get_transcript over stdio too: the SDK's stdio client against each target. */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { type FakeYoutube, startFakeYoutube } from "../support/fake/youtube.ts";
import { VIDEOS, watchUrl } from "../support/fixtures.ts";
import { captionXml, generateCues } from "../support/long-transcript.ts";
import { textOf } from "../support/mcp/http.ts";
import { commandFor, defaultCwd, targetFromEnv } from "../support/service/process.ts";

const target = targetFromEnv();
const [command, ...args] = commandFor(target, ["mcp"]);

let youtube: FakeYoutube;
let client: Client;

beforeAll(async () => {
  youtube = startFakeYoutube();
  // The offline engine, no key (stdio needs none), and RATE_LIMIT on the stdio caller: 50 calls a minute.
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "/tmp",
    NO_COLOR: "1",
    LOG_FORMAT: "json",
    YOUTUBE_BASE_URL: youtube.origin,
    TRANSCRIPT_CACHE_TTL_MS: "0",
    RATE_LIMIT: "50/min",
  };
  client = new Client({ name: "e2e", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({ command: command!, args, env, cwd: defaultCwd(target), stderr: "ignore" }),
  );
});
afterAll(async () => {
  await client?.close();
  await youtube?.close();
});
beforeEach(() => youtube.reset());

type Page = { segments: { start: number; duration: number; text: string }[]; next_from_seconds?: number };

describe(`get_transcript over stdio (${target})`, () => {
  test("is listed beside chat_about_video, url required, with its output schema", async () => {
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === "get_transcript")!;
    expect(tool.inputSchema.required).toEqual(["url"]);
    expect(Object.keys(tool.inputSchema.properties!)).toEqual(["url", "language", "from_seconds", "to_seconds"]);
    expect(tool.outputSchema?.required).toContain("segments");
  }, 60_000);

  test("returns the 5-minute video's timed transcript in one page, with a progress step", async () => {
    const steps: number[] = [];
    const result = await client.callTool(
      { name: "get_transcript", arguments: { url: watchUrl("normal"), language: "en" } },
      { onprogress: (p) => steps.push(p.progress) },
    );
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      language: "en",
      kind: "manual",
      language_source: "requested",
      video_duration: "5 minutes",
    });
    expect((result.structuredContent as Page).segments).toHaveLength(3);
    expect(textOf(result)).toStartWith("[0:00] Hey, this is just a test\n[0:01] ");
    expect(steps).toEqual([1]);
  }, 60_000);

  test("reads a range of a 3-hour video in pages that chain to the range's end", async () => {
    const cues = generateCues(3 * 3600);
    youtube.setCaption(VIDEOS.normal.id, captionXml(cues));
    const read: Page["segments"] = [];
    let next: number | undefined = 3600;
    while (next !== undefined) {
      const result = await client.callTool({
        name: "get_transcript",
        arguments: { url: watchUrl("normal"), from_seconds: next, to_seconds: 7200 },
      });
      expect(JSON.stringify({ content: result.content, structuredContent: result.structuredContent }).length)
        .toBeLessThanOrEqual(20_000);
      read.push(...(result.structuredContent as Page).segments);
      next = (result.structuredContent as Page).next_from_seconds;
    }
    expect(read).toEqual(cues.filter((cue) => cue.start >= 3600 && cue.start < 7200));
  }, 60_000);

  test("a refusal is a tool error with the contract's code", async () => {
    const result = await client.callTool({ name: "get_transcript", arguments: { url: watchUrl("ageRestricted") } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toStartWith("video_age_restricted: ");
  }, 60_000);
});
