/** @module Security tests that no request leaves for a host other than the configured YouTube origin. */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { createMemoryCache } from "../../src/adapters/cache/memory-cache.ts";
import { composeTranscriptSource } from "../../src/app/compose/youtube.ts";
import { loadConfig } from "../../src/app/config/config.ts";
import { silentLogger } from "../../src/app/log/logger.ts";
import type { Transcript } from "../../src/domain/transcript.ts";
import { fixture, VIDEOS } from "../support/fixtures.ts";
import { checkContract, type Harness, KEY, NORMAL_ID, NORMAL_URL, startHarness } from "../fuzz/harness.ts";
import { type Canary, startCanary } from "./canary.ts";

/**
 * No request ever leaves for a host other than the configured YouTube origin,
 * whatever the caller sends and whatever YouTube answers: caption URLs,
 * redirects and watch pages naming another host are brought back onto the
 * origin or refused. The "other host" is a loopback canary that counts hits.
 */
let h: Harness;
let canary: Canary;

beforeAll(async () => {
  canary = startCanary();
  h = await startHarness({ TRANSCRIPT_CACHE_TTL_MS: "0", ANSWER_CACHE_TTL_MS: "0" });
});
afterAll(async () => {
  await h?.close();
  await canary?.close();
});
beforeEach(() => {
  h.youtube.reset();
  h.llm.reset();
});

/** The normal video's player response with every caption track's baseUrl made by `rewrite`. */
function playerWithCaptionUrls(rewrite: (original: string) => string): string {
  const player = JSON.parse(fixture(VIDEOS.normal.player));
  for (const track of player.captions.playerCaptionsTracklistRenderer.captionTracks) {
    track.baseUrl = rewrite(track.baseUrl);
  }
  return JSON.stringify(player);
}

/** Ways a response can name the canary instead of YouTube. */
function canaryUrls(c: Canary): Record<string, (original: string) => string> {
  const pathAndQuery = (url: string) => url.replace(/^https:\/\/www\.youtube\.com/, "");
  return {
    absolute: (u) => `${c.origin}${pathAndQuery(u)}`,
    "protocol-relative": (u) => `//${c.host}${pathAndQuery(u)}`,
    "userinfo trick": (u) => `http://www.youtube.com@${c.host}${pathAndQuery(u)}`,
    backslashes: (u) => `http:\\\\${c.host}${pathAndQuery(u)}`,
    "https to the canary's port": (u) => `https://${c.host}${pathAndQuery(u)}`,
    "encoded host": (u) => `http://127.0.0.1%3A${c.host.split(":")[1]}${pathAndQuery(u)}`,
  };
}

function chat(body: unknown): Promise<Response> {
  return fetch(`${h.service.url}/chat`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": KEY },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
}

async function expectDocumented(response: Response): Promise<void> {
  checkContract({ status: response.status, headers: response.headers, text: await response.text() }, false);
}

describe("no SSRF (end to end, real service)", () => {
  test("caption URLs in the player response that name another host are fetched from the configured origin only", async () => {
    for (const [name, rewrite] of Object.entries(canaryUrls(canary))) {
      h.youtube.setFault("player", { kind: "body", body: playerWithCaptionUrls(rewrite) });
      const before = h.youtube.count("caption");
      const response = await chat({ url: NORMAL_URL, prompt: `question for ${name}` });
      expect([200, 502], name).toContain(response.status);
      if (response.status === 200) expect(h.youtube.count("caption"), name).toBe(before + 1);
      await expectDocumented(response);
      expect(canary.hits, name).toEqual([]);
    }
  });

  test("redirects from YouTube towards another host are not followed", async () => {
    for (const endpoint of ["player", "caption", "watch"] as const) {
      for (const status of [301, 302, 303, 307, 308]) {
        h.youtube.reset();
        h.youtube.setFault(endpoint, {
          kind: "status",
          status,
          headers: { location: `${canary.origin}/api/timedtext?v=${NORMAL_ID}` },
        });
        const response = await chat({ url: NORMAL_URL, prompt: `redirect ${endpoint} ${status}` });
        // The watch page is not needed while the player answers, so a redirect there changes nothing.
        if (endpoint !== "watch") expect(response.status, `${endpoint} ${status}`).toBe(502);
        await expectDocumented(response);
        expect(canary.hits, `${endpoint} ${status}`).toEqual([]);
      }
    }
  });

  test("when the first reader gives up, the second strategy does not follow a watch page's URLs to another host", async () => {
    const watch = fixture("youtube.html").replaceAll("https://www.youtube.com/", `${canary.origin}/`).replaceAll(
      "https:\\/\\/www.youtube.com\\/",
      `${canary.origin.replace(/\//g, "\\/")}\\/`,
    );
    h.youtube.setFault("player", {
      kind: "body",
      body: "<html>not a player response</html>",
      contentType: "text/html",
    });
    h.youtube.setFault("watch", { kind: "body", body: watch, contentType: "text/html; charset=utf-8" });
    const response = await chat({ url: NORMAL_URL, prompt: "second strategy" });
    await expectDocumented(response);
    expect(canary.hits).toEqual([]);
  });

  test("a request body naming the canary (or any host but YouTube) is 400 with no outbound request at all", async () => {
    const port = canary.host.split(":")[1];
    const urls = [
      `${canary.origin}/watch?v=${NORMAL_ID}`,
      `http://127.0.0.1:${port}/watch?v=${NORMAL_ID}`,
      `http://www.youtube.com@127.0.0.1:${port}/watch?v=${NORMAL_ID}`,
      `http://localhost:${port}/watch?v=${NORMAL_ID}`,
      `http://www.youtube.com:${port}/watch?v=${NORMAL_ID}`,
      `http://youtube.com.127.0.0.1.nip.io:${port}/watch?v=${NORMAL_ID}`,
      `http://[::ffff:127.0.0.1]:${port}/watch?v=${NORMAL_ID}`,
      `https://www.youtube.com/redirect?q=${encodeURIComponent(canary.origin)}`,
      `https://www.youtube.com/attribution_link?u=${encodeURIComponent(`${canary.origin}/watch?v=${NORMAL_ID}`)}`,
    ];
    for (const url of urls) {
      const response = await chat({ url });
      expect(response.status, url).toBe(400);
      await expectDocumented(response);
    }
    expect(h.youtube.seen).toEqual([]);
    expect(h.llm.calls).toEqual([]);
    expect(canary.hits).toEqual([]);
  });
});

describe("no SSRF (every URL the transcript source fetches)", () => {
  test("both strategies send every request to the configured origin, whatever URLs the responses name", async () => {
    const config = loadConfig({
      YOUTUBE_BASE_URL: h.youtube.origin,
      YOUTUBE_TIMEOUT_MS: "2000",
      TRANSCRIPT_CACHE_TTL_MS: "0",
    });
    const requested: string[] = [];
    const spy = ((input: string | URL | Request, init?: RequestInit) => {
      requested.push(input instanceof Request ? input.url : String(input));
      return fetch(input, init);
    }) as typeof fetch;
    const source = composeTranscriptSource(config, { logger: silentLogger, fetch: spy }, {
      transcriptCache: createMemoryCache<Transcript>({ maxEntries: 10 }),
    });
    const scenarios: [string, () => void][] = [
      ...Object.entries(canaryUrls(canary)).map((
        [name, rewrite],
      ): [string, () => void] => [
        name,
        () => h.youtube.setFault("player", { kind: "body", body: playerWithCaptionUrls(rewrite) }),
      ]),
      ["unreadable player, watch page naming the canary", () => {
        h.youtube.setFault("player", { kind: "body", body: "not json" });
        h.youtube.setFault("watch", {
          kind: "body",
          body: fixture("youtube.html").replaceAll("https://www.youtube.com/", `${canary.origin}/`),
          contentType: "text/html",
        });
      }],
    ];
    for (const [name, arrange] of scenarios) {
      h.youtube.reset();
      arrange();
      await source.fetch(NORMAL_ID, { languages: ["en"], translate: true }).catch(() => undefined);
      for (const url of requested) expect(new URL(url).origin, `${name}: ${url}`).toBe(h.youtube.origin);
    }
    expect(requested.length).toBeGreaterThan(scenarios.length);
    expect(canary.hits).toEqual([]);
  });
});
