/** @module Both MCP eras end to end, over HTTP and stdio: v2 pinned to 2026-07-28, v2 on 2025-11-25, and 1.x. */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { type FakeLlm, startFakeLlm } from "../support/fake/llm.ts";
import { type FakeYoutube, startFakeYoutube } from "../support/fake/youtube.ts";
import { VIDEOS, watchUrl } from "../support/fixtures.ts";
import { captionXml, generateCues } from "../support/long-transcript.ts";
import { type Agent, AGENTS, type AgentTarget, connectAgent, type Progress } from "../support/mcp/agents.ts";
import { cancelWhileModelWorks, mcpUrlOf } from "../support/mcp/http.ts";
import {
  commandFor,
  defaultCwd,
  type RunningService,
  startService,
  targetFromEnv,
} from "../support/service/process.ts";
import { GROQ_KEY } from "./llm-harness.ts";

const target = targetFromEnv();
const API_KEY = "e2e-mcp-eras-key-0123";
const ORIGIN = "https://agent-ui.example";
const THREE_HOURS = 3 * 3600;
const PAGE_MAX_CHARS = 20_000;
const isPart = (text: string) => /Part \d+ of \d+ of a long video's transcript/.test(text);

let youtube: FakeYoutube;
let llm: FakeLlm;
let service: RunningService;
let mcpUrl: string;
let env: Record<string, string>;

beforeAll(async () => {
  youtube = startFakeYoutube();
  llm = startFakeLlm();
  // Caches off, so each test sees its own fakes; a call size that splits three hours into parts.
  env = {
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
  service = await startService({ ...env, API_KEYS: API_KEY, MCP_PORT: "0", CORS_ORIGINS: ORIGIN });
  mcpUrl = await mcpUrlOf(service);
});
afterAll(async () => {
  await service?.stop();
  await youtube?.close();
  await llm?.close();
});
beforeEach(() => {
  youtube.reset();
  llm.reset();
});

const [command, ...args] = commandFor(target, ["mcp"]);
const TRANSPORTS: { name: string; target: () => AgentTarget }[] = [
  { name: "Streamable HTTP", target: () => ({ url: mcpUrl, headers: { "x-api-key": API_KEY } }) },
  {
    name: "stdio",
    target: () => ({
      command: command!,
      args,
      // RATE_LIMIT=none, as startService gives the HTTP service: the subject is the protocol's eras, not limits.
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "/tmp",
        NO_COLOR: "1",
        RATE_LIMIT: "none",
        ...env,
      },
      cwd: defaultCwd(target),
    }),
  },
];

type Segment = { start: number; duration: number; text: string };

for (const transport of TRANSPORTS) {
  describe.each(AGENTS)(`MCP over ${transport.name} (${target}): the $kind client`, ({ kind, protocol }) => {
    let agent: Agent;
    beforeAll(async () => {
      agent = await connectAgent(kind, transport.target());
    }, 60_000);
    afterAll(async () => await agent?.close());

    test(`connects on ${protocol} and lists both tools`, async () => {
      expect(agent.protocolVersion()).toBe(protocol);
      expect(agent.serverName()).toBe("video-chat-service");
      if (protocol === "2026-07-28") {
        // No handshake: the server was found through server/discover, which gives the revisions it serves, its
        // capabilities and how to use it.
        const discovered = agent.discovered();
        expect(discovered?.capabilities?.tools).toBeDefined();
        expect(discovered?.instructions).toContain("get_transcript");
        // The handshake-free revisions only: a 2025-era client asks `initialize`, which it is still answered.
        expect(discovered?.supportedVersions).toEqual(["2026-07-28"]);
      } else {
        expect(agent.discovered()).toBeUndefined();
      }
      expect(await agent.listTools()).toEqual(["chat_about_video", "get_transcript"]);
    }, 60_000);

    test("chat_about_video answers a 3-hour video with increasing progress", async () => {
      youtube.setCaption(VIDEOS.normal.id, captionXml(generateCues(THREE_HOURS)));
      llm.respondWith((call) => ({
        content: isPart(call.text)
          ? "- [0:00] The reviewer covers one aspect of the device."
          : "The reviewer likes the device [0:00].",
        delayMs: 20,
      }));
      const seen: Progress[] = [];
      const result = await agent.callTool("chat_about_video", { url: watchUrl("normal") }, {
        onprogress: (p) => seen.push(p),
        timeout: 90_000,
      });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({
        url: watchUrl("normal"),
        output: expect.stringContaining("[0:00]"),
      });
      expect(seen.length).toBeGreaterThanOrEqual(3);
      for (let i = 1; i < seen.length; i++) expect(seen[i]!.progress).toBeGreaterThan(seen[i - 1]!.progress);
      expect(seen.at(-1)!.total).toBeGreaterThanOrEqual(seen.at(-1)!.progress);
    }, 120_000);

    test("cancelling a call, as its revision defines it, closes the model's call", async () => {
      llm.respondWith(() => ({ content: "Too late [0:00].", delayMs: 20_000 }));
      const controller = new AbortController();
      const call = agent.callTool(
        "chat_about_video",
        { url: watchUrl("normal"), prompt: `A question to cancel (${kind})` },
        { signal: controller.signal },
      );
      expect(await cancelWhileModelWorks(llm, call, () => controller.abort("the user changed their mind")))
        .toBeDefined();
    }, 60_000);

    test("get_transcript pages a 3-hour video to its end, each page marked untrusted", async () => {
      const cues = generateCues(THREE_HOURS);
      youtube.setCaption(VIDEOS.normal.id, captionXml(cues));
      const read: Segment[] = [];
      let next: number | undefined = 0;
      let pages = 0;
      while (next !== undefined) {
        const result = await agent.callTool("get_transcript", { url: watchUrl("normal"), from_seconds: next });
        expect(result.isError).toBeFalsy();
        expect(JSON.stringify({ content: result.content, structuredContent: result.structuredContent }).length)
          .toBeLessThanOrEqual(PAGE_MAX_CHARS);
        const page = result.structuredContent as {
          segments: Segment[];
          next_from_seconds?: number;
          text_trust: string;
        };
        expect(page.text_trust).toBe("untrusted");
        read.push(...page.segments);
        next = page.next_from_seconds;
        if (++pages > 100) throw new Error("the pages do not end");
      }
      expect(pages).toBeGreaterThan(5);
      expect(read).toEqual(cues);
    }, 120_000);
  });
}

/** A 2026-07-28 request as the v2 client sends it: the revision and the client in `_meta`, the standard headers. */
function modernCall(name: string, headers: Record<string, string> = {}): RequestInit {
  const body = {
    jsonrpc: "2.0",
    id: 7,
    method: "tools/call",
    params: {
      name,
      arguments: { url: watchUrl("normal") },
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
        "io.modelcontextprotocol/clientCapabilities": {},
      },
    },
  };
  return {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": name,
      ...headers,
    },
    body: JSON.stringify(body),
  };
}

const INITIALIZE: RequestInit = {
  method: "POST",
  headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
  body: JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
  }),
};

describe(`MCP over Streamable HTTP (${target}): the 2026-07-28 headers, CORS and keys`, () => {
  test(
    "an Mcp-Name that does not match the body is refused with 400 and -32020; a matching one is served",
    async () => {
      const mismatch = await fetch(
        mcpUrl,
        modernCall("get_transcript", { "x-api-key": API_KEY, "mcp-name": "chat_about_video" }),
      );
      expect(mismatch.status).toBe(400);
      expect((await mismatch.json()).error.code).toBe(-32020);
      const matching = await fetch(mcpUrl, modernCall("get_transcript", { "x-api-key": API_KEY }));
      expect(matching.status).toBe(200);
      expect(await matching.text()).toContain("Hey, this is just a test");
      expect(youtube.seen.some((s) => s.endpoint === "caption")).toBe(true);
    },
    60_000,
  );

  test(
    "a preflight from an allowed origin allows the 2026-07-28 headers; the answer exposes what clients read",
    async () => {
      const preflight = await fetch(mcpUrl, {
        method: "OPTIONS",
        headers: {
          origin: ORIGIN,
          "access-control-request-method": "POST",
          "access-control-request-headers": "content-type, mcp-protocol-version, mcp-method, mcp-name, authorization",
        },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get("access-control-allow-origin")).toBe(ORIGIN);
      const allowed = preflight.headers.get("access-control-allow-headers")!.split(/,\s*/);
      expect(allowed).toEqual(
        expect.arrayContaining(["mcp-protocol-version", "mcp-method", "mcp-name", "authorization"]),
      );
      const call = await fetch(mcpUrl, modernCall("get_transcript", { "x-api-key": API_KEY, origin: ORIGIN }));
      expect(call.headers.get("access-control-allow-origin")).toBe(ORIGIN);
      expect(call.headers.get("access-control-expose-headers")).toContain("x-request-id");
      // Read to its end, so its transcript fetch is not counted in the next test.
      expect(await call.text()).toContain("Hey, this is just a test");
    },
    60_000,
  );

  test("without a key: 401 on both revisions, and no OAuth metadata advertised anywhere", async () => {
    for (const request of [modernCall("get_transcript"), INITIALIZE]) {
      const response = await fetch(mcpUrl, request);
      expect(response.status).toBe(401);
      expect((await response.json()).error.code).toBe("unauthorized");
      const challenge = response.headers.get("www-authenticate") ?? "";
      expect(challenge).toStartWith("Bearer");
      expect(challenge).not.toContain("resource_metadata");
    }
    for (
      const path of [
        "/.well-known/oauth-protected-resource",
        "/.well-known/oauth-protected-resource/mcp",
        "/.well-known/oauth-authorization-server",
      ]
    ) {
      expect((await fetch(new URL(path, mcpUrl))).status).toBe(404);
    }
    expect(youtube.seen).toHaveLength(0);
    // The v2 client pinned to 2026-07-28 and the 1.x client both stop at the 401.
    for (const { kind } of [AGENTS[0], AGENTS[2]]) {
      await expect(connectAgent(kind, { url: mcpUrl, headers: {} })).rejects.toThrow(
        /401|Unauthorized|Missing API key/i,
      );
    }
  }, 60_000);
});
