/** @module End-to-end tests of `POST /chat` on the captured YouTube fixtures, through the fake YouTube. */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { formatTimestamp } from "../../src/domain/transcript.ts";
import { TIMED_CLASSIC, TIMED_STARTS } from "../support/caption-bodies.ts";
import { CONSENT_COOKIE, type WatchPage } from "../support/fake/youtube.ts";
import { type VideoName, VIDEOS } from "../support/fixtures.ts";
import { targetFromEnv } from "../support/service/process.ts";
import { ask, startYoutubeRig, type YoutubeRig } from "../support/service/youtube.ts";

/** Nothing here may take longer: the slowest path is six loopback round trips. */
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

const captionQuery = () => rig.youtube.seen.find((s) => s.endpoint === "caption")?.query;
const llmText = () => rig.llm.calls.map((c) => c.text).join("\n");

describe(`YouTube fixtures through POST /chat (${targetFromEnv()})`, () => {
  test.each(
    [
      ["normal", "en", "en", "none", "5 minutes"],
      ["normal", "es", "es", "none", "5 minutes"],
      ["normal", "pt", "en", "pt", "5 minutes"],
      ["alteredAgent", "en", "en", "none", "5 minutes"],
      ["twoTracks", "en", "en", "none", "25 minutes"],
      ["twoTracks", "ru", "en", "ru", "25 minutes"],
    ] as const,
  )(
    "%s asked in %s: 200 from track lang=%s tlang=%s, cue times in seconds",
    async (name, language, lang, tlang, duration) => {
      const outcome = await ask(rig.service, VIDEOS[name].id, { language, prompt: `What is said in ${language}?` });
      expect(outcome.status).toBe(200);
      expect(outcome.body.video_duration).toBe(duration);
      const query = captionQuery()!;
      expect([query.lang, query.tlang ?? "none", query.kind, query.fmt]).toEqual([lang, tlang, undefined, undefined]);
      expect(llmText()).toContain(
        "[0:00] Hey, this is just a test this is not the original transcript just something shorter",
      );
      expect(outcome.ms).toBeLessThan(BOUND_MS);
    },
  );

  test("cue times reach the answer writer in seconds", async () => {
    rig.youtube.setCaption(VIDEOS.normal.id, TIMED_CLASSIC);
    expect((await ask(rig.service, VIDEOS.normal.id, { prompt: "When?" })).status).toBe(200);
    for (const start of TIMED_STARTS) expect(llmText()).toContain(`[${formatTimestamp(start)}] The`);
  });

  test.each(
    [
      ["captionsDisabled", 422, "transcript_unavailable"],
      ["pastLiveNoCaptions", 422, "transcript_unavailable"],
      ["ageRestricted", 422, "video_age_restricted"],
      ["unavailable", 422, "video_unavailable"],
      ["unplayable", 422, "video_unplayable"],
      ["botCheck", 503, "upstream_blocked"],
      ["poToken", 502, "upstream_error"],
    ] as const,
  )("%s: %d %s", async (name: VideoName, status, code) => {
    const outcome = await ask(rig.service, VIDEOS[name].id);
    expect([outcome.status, outcome.code]).toEqual([status, code]);
    expect(outcome.ms).toBeLessThan(BOUND_MS);
    expect(rig.llm.calls).toHaveLength(0);
  });

  test("the unplayable message carries YouTube's reason and sub-reasons", async () => {
    const outcome = await ask(rig.service, VIDEOS.unplayable.id);
    expect(outcome.message).toBe("YouTube will not play video unplayable1: Custom Reason (Sub Reason 1 Sub Reason 2)");
  });

  test("the bot check sets Retry-After", async () => {
    expect((await ask(rig.service, VIDEOS.botCheck.id)).retryAfter).toBe("60");
  });

  test("the PoToken-gated track is not even requested", async () => {
    await ask(rig.service, VIDEOS.poToken.id);
    expect(rig.youtube.count("caption")).toBe(0);
  });
});

describe(`the watch-page fallback through POST /chat (${targetFromEnv()})`, () => {
  test.each(
    [
      ["page", 200, undefined],
      ["consent", 200, undefined],
      ["consent-current", 200, undefined],
      ["consent-invalid", 502, "upstream_error"],
      ["recaptcha", 503, "upstream_blocked"],
    ] as const,
  )("key-less answers unreadable, watch page %s: %d %s", async (page: WatchPage, status, code) => {
    rig.youtube.setPlayerGate({ garbleKeyless: true });
    rig.youtube.setWatch(page);
    const outcome = await ask(rig.service, VIDEOS.normal.id);
    expect([outcome.status, outcome.code]).toEqual([status, code]);
    expect(outcome.ms).toBeLessThan(BOUND_MS);
  });

  test("after the consent wall, the keyed player call and the caption call carry the consent cookie", async () => {
    rig.youtube.setPlayerGate({ garbleKeyless: true });
    rig.youtube.setWatch("consent");
    expect((await ask(rig.service, VIDEOS.normal.id)).status).toBe(200);
    const keyed = rig.youtube.seen.find((s) => s.endpoint === "player" && s.query.key);
    expect(keyed?.cookie).toBe(CONSENT_COOKIE);
    expect(rig.youtube.seen.find((s) => s.endpoint === "caption")?.cookie).toBe(`SOCS=CAI; ${CONSENT_COOKIE}`);
  });

  test("today's consent wall is never shown: the watch page goes out with SOCS=CAI set in advance", async () => {
    rig.youtube.setPlayerGate({ garbleKeyless: true });
    rig.youtube.setWatch("consent-current");
    expect((await ask(rig.service, VIDEOS.normal.id)).status).toBe(200);
    expect(rig.youtube.seen.filter((s) => s.endpoint === "watch").map((s) => s.cookie)).toEqual(["SOCS=CAI"]);
  });

  test("the invalid consent page gets a clear message", async () => {
    rig.youtube.setPlayerGate({ garbleKeyless: true });
    rig.youtube.setWatch("consent-invalid");
    expect((await ask(rig.service, VIDEOS.normal.id)).message).toContain("cookie-consent page");
  });

  // Issue 21: a bot check is about the address; with one route (direct) there is nowhere else to go.
  test("a bot check on the first client is 503 at once: no other client, no watch page", async () => {
    rig.youtube.setPlayerGate({ blockClients: ["ANDROID"] });
    expect((await ask(rig.service, VIDEOS.normal.id)).status).toBe(503);
    expect(rig.youtube.seen.map((s) => [s.endpoint, s.client])).toEqual([["player", "ANDROID"]]);
  });
});
