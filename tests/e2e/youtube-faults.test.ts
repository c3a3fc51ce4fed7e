/** @module End-to-end tests of YouTube faults: gated tracks, resets, srv3 bodies, unreadable responses, hangs. */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { formatTimestamp } from "../../src/domain/transcript.ts";
import { EMPTY_TRANSCRIPT, TIMED_SRV3, TIMED_STARTS, truncatedTranscript } from "../support/caption-bodies.ts";
import type { Endpoint } from "../support/fake/youtube.ts";
import { fixture, VIDEOS } from "../support/fixtures.ts";
import { targetFromEnv } from "../support/service/process.ts";
import { ask, startYoutubeRig, type YoutubeRig } from "../support/service/youtube.ts";

/** YOUTUBE_TIMEOUT_MS is 1000 here: a hang must end soon after it, never near the 120 s request limit. */
const HANG_BOUND_MS = 3_000;
const BOUND_MS = 5_000;
let rig: YoutubeRig;

beforeAll(async () => {
  rig = await startYoutubeRig();
});
afterAll(() => rig?.close());
beforeEach(() => {
  rig.youtube.reset();
  rig.llm.reset();
});

/** The watch page is only reached when no key-less player answer can be read (a bot check switches routes instead). */
function reach(endpoint: Endpoint): void {
  if (endpoint === "watch") rig.youtube.setPlayerGate({ garbleKeyless: true });
}

describe(`YouTube faults through POST /chat (${targetFromEnv()})`, () => {
  test.each(
    [
      ["player", 429, 503, "upstream_blocked"],
      ["player", 500, 502, "upstream_error"],
      ["watch", 429, 503, "upstream_blocked"],
      ["watch", 500, 502, "upstream_error"],
      ["caption", 429, 503, "upstream_blocked"],
      ["caption", 500, 502, "upstream_error"],
    ] as const,
  )("HTTP %s %d: %d %s", async (endpoint, upstream, status, code) => {
    reach(endpoint);
    rig.youtube.setFault(endpoint, { kind: "status", status: upstream, body: "<html>upstream secret body</html>" });
    const outcome = await ask(rig.service, VIDEOS.normal.id);
    expect([outcome.status, outcome.code]).toEqual([status, code]);
    expect(rig.youtube.count(endpoint)).toBeGreaterThanOrEqual(1);
    expect(outcome.message).not.toContain("secret");
    if (upstream === 429) expect(Number(outcome.retryAfter)).toBeGreaterThan(0);
    expect(outcome.ms).toBeLessThan(BOUND_MS);
  });

  test.each(["player", "watch", "caption"] as const)(
    "a %s request that never answers: 504 upstream_timeout, soon after YOUTUBE_TIMEOUT_MS",
    async (endpoint) => {
      reach(endpoint);
      rig.youtube.setFault(endpoint, { kind: "hang" });
      const outcome = await ask(rig.service, VIDEOS.normal.id);
      expect([outcome.status, outcome.code]).toEqual([504, "upstream_timeout"]);
      expect(outcome.ms).toBeGreaterThanOrEqual(900);
      expect(outcome.ms).toBeLessThan(HANG_BOUND_MS);
    },
  );

  test("a caption track PoToken-gated for the first client is served through the second: 200 (issue 15 item 6)", async () => {
    rig.youtube.setPlayerGate({
      tracks: (
        client,
        tracks,
      ) => (client === "ANDROID" ? tracks.map((t) => ({ ...t, baseUrl: `${t.baseUrl}&exp=xpe` })) : tracks),
    });
    const outcome = await ask(rig.service, VIDEOS.normal.id);
    expect(outcome.status).toBe(200);
    expect(rig.youtube.seen.filter((s) => s.endpoint === "player").map((s) => s.client)).toEqual(["ANDROID", "IOS"]);
    expect(rig.youtube.seen.filter((s) => s.endpoint === "caption").map((s) => s.query.exp)).toEqual([undefined]);
  });

  test("a connection reset mid-body: 502 upstream_error", async () => {
    rig.youtube.setFault("player", { kind: "reset" });
    const outcome = await ask(rig.service, VIDEOS.normal.id);
    expect([outcome.status, outcome.code]).toEqual([502, "upstream_error"]);
    expect(outcome.ms).toBeLessThan(BOUND_MS);
  });

  test.each([
    ["empty", ""],
    ["a document without cues", EMPTY_TRANSCRIPT],
    ["truncated", truncatedTranscript()],
  ])("a caption body that is %s: 502 upstream_error, never an empty transcript", async (_, body) => {
    rig.youtube.setCaption(VIDEOS.normal.id, body);
    const outcome = await ask(rig.service, VIDEOS.normal.id);
    expect([outcome.status, outcome.code]).toEqual([502, "upstream_error"]);
    expect(rig.llm.calls).toHaveLength(0);
    expect(outcome.ms).toBeLessThan(BOUND_MS);
  });

  test("an srv3 caption body: 200, cue times read as milliseconds", async () => {
    rig.youtube.setCaption(VIDEOS.normal.id, TIMED_SRV3);
    const outcome = await ask(rig.service, VIDEOS.normal.id, { prompt: "When?" });
    expect(outcome.status).toBe(200);
    const sent = rig.llm.calls.map((c) => c.text).join("\n");
    for (const start of TIMED_STARTS) expect(sent).toContain(`[${formatTimestamp(start)}] The`);
  });

  test("a player response that is not JSON: 502 upstream_error after both strategies, bounded", async () => {
    rig.youtube.setFault("player", { kind: "body", body: "<html>not json</html>", contentType: "text/html" });
    const outcome = await ask(rig.service, VIDEOS.normal.id);
    expect([outcome.status, outcome.code]).toEqual([502, "upstream_error"]);
    expect(outcome.message).not.toContain("not json");
    expect(outcome.ms).toBeLessThan(BOUND_MS);
  });

  test("a player response the primary path cannot read but youtube-transcript can: 200 through the second strategy", async () => {
    const odd = JSON.parse(fixture(VIDEOS.normal.player));
    delete odd.playabilityStatus;
    rig.youtube.setFault("player", { kind: "body", body: JSON.stringify(odd) });
    const outcome = await ask(rig.service, VIDEOS.normal.id, { prompt: "What is the test?" });
    expect(outcome.status).toBe(200);
    expect(rig.llm.calls.map((c) => c.text).join("\n")).toContain("[0:00] Hey, this is just a test");
    // Primary: two key-less clients, the watch page, the keyed call; then the package's own call and the caption.
    expect(rig.youtube.seen.map((s) => s.endpoint)).toEqual([
      "player",
      "player",
      "watch",
      "player",
      "player",
      "caption",
    ]);
    expect(rig.youtube.seen.at(-1)!.query.lang).toBe("en");
  });
});
