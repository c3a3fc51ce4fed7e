/** @module Tests of caption-fetch.ts: PoToken gates by `exp`, and translations YouTube limits with 429. */
import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { fetchCaptions, isGated } from "../../../src/adapters/youtube/caption-fetch.ts";
import type { TrackChoice } from "../../../src/adapters/youtube/track-choice.ts";
import { createYoutubeTransport } from "../../../src/adapters/youtube/transport.ts";
import { startFakeYoutube } from "../../support/fake/youtube.ts";
import { failure } from "../../support/failure.ts";
import { VIDEOS } from "../../support/fixtures.ts";

const youtube = startFakeYoutube();
const transport = createYoutubeTransport({ baseUrl: youtube.origin, timeoutMs: 2_000 });
afterAll(() => youtube.close());
beforeEach(() => youtube.reset());

const track = (query: string) => ({
  baseUrl: `https://www.youtube.com/api/timedtext?v=${VIDEOS.normal.id}&lang=en${query}&fmt=srv3`,
  languageCode: "en",
  isGenerated: false,
  isTranslatable: true,
});
const choice = (query = "", translateTo?: string): TrackChoice => ({ track: track(query), translateTo });
const request = (c: TrackChoice) => ({ transport, videoId: VIDEOS.normal.id, choice: c, baseUrl: youtube.origin });
const captions = () => youtube.seen.filter((s) => s.endpoint === "caption");

describe("isGated()", () => {
  test.each(
    [
      ["&exp=xpe", true],
      ["&exp=xpv", true],
      ["&exp=xftt,xpv", true],
      ["&exp=xftt&exp=xpe", true],
      ["&exp=xftt,xctw", false],
      ["", false],
    ] as const,
  )("a caption URL with %j: %p", (query, gated) => {
    expect(isGated(choice(query), "http://127.0.0.1:1")).toBe(gated);
  });
});

describe("fetchCaptions()", () => {
  test("reads the track in the classic format, as a browser asks: its user agent, the consent cookie", async () => {
    const { cues, choice: read } = await fetchCaptions(request(choice()));
    expect(cues).toHaveLength(3);
    expect(read.translateTo).toBeUndefined();
    const [sent] = captions();
    expect(sent!.query.fmt).toBeUndefined();
    expect(sent!.headers.userAgent).toMatch(/^Mozilla\/5\.0 /);
    expect(sent!.cookie).toBe("SOCS=CAI");
  });

  test("a translation refused with 429 is asked again as the web player asks, and served so", async () => {
    youtube.setTranslationLimit("plain");
    const { choice: read } = await fetchCaptions(request(choice("", "pt")));
    expect(read.translateTo).toBe("pt");
    const [plain, web] = captions();
    expect(plain!.query.c).toBeUndefined();
    expect(web!.query).toMatchObject({ tlang: "pt", c: "WEB", cplayer: "UNIPLAYER", cplatform: "DESKTOP" });
    expect(web!.headers.referer).toBe(`${youtube.origin}/watch?v=${VIDEOS.normal.id}`);
  });

  test("refused however asked, the original track is read: the choice says so", async () => {
    youtube.setTranslationLimit("all");
    const { cues, choice: read } = await fetchCaptions(request(choice("", "pt")));
    expect(cues).toHaveLength(3);
    expect(read).toEqual({ track: track("") });
    expect(captions().map((s) => s.query.tlang)).toEqual(["pt", "pt", undefined]);
  });

  test("the original refused too is the block it is (503 upstream_blocked); an untranslated 429 is never retried", async () => {
    youtube.setFault("caption", { kind: "status", status: 429 });
    expect((await failure(fetchCaptions(request(choice("", "pt"))))).code).toBe("upstream_blocked");
    expect(captions()).toHaveLength(3);
    youtube.reset();
    youtube.setFault("caption", { kind: "status", status: 429 });
    expect((await failure(fetchCaptions(request(choice())))).code).toBe("upstream_blocked");
    expect(captions()).toHaveLength(1);
  });

  test("a translation refused otherwise (HTTP 500) is not asked again", async () => {
    youtube.setFault("caption", { kind: "status", status: 500 });
    expect((await failure(fetchCaptions(request(choice("", "pt"))))).code).toBe("upstream_error");
    expect(captions()).toHaveLength(1);
  });
});
