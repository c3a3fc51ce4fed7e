/** @module Tests of the InnerTube transcript source: clients, translations, gated tracks, watch page and consent. */
import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { createInnertubeTranscriptSource } from "../../../src/adapters/youtube/innertube-transcript-source.ts";
import { SRV3 } from "../../support/caption-bodies.ts";
import { CONSENT_COOKIE, startFakeYoutube } from "../../support/fake/youtube.ts";
import { fixture, VIDEOS } from "../../support/fixtures.ts";
import { failure } from "../../support/failure.ts";
import { innertubeClients } from "../../../src/adapters/youtube/innertube-clients.ts";

const youtube = startFakeYoutube();
const clients = innertubeClients([{ name: "ANDROID", version: "21.26.364" }, { name: "IOS", version: "21.26.4" }]);
const source = createInnertubeTranscriptSource({ baseUrl: youtube.origin, clients, timeoutMs: 2_000 });
const en = { languages: ["en"] as const, translate: true };

afterAll(() => youtube.close());
beforeEach(() => youtube.reset());

/** The requests the fake saw, as `endpoint[:client][+key][+socs][+consent]` (the cookies each carried). */
const trail = () =>
  youtube.seen.map((s) =>
    `${s.endpoint}${s.client ? `:${s.client}` : ""}${s.endpoint === "player" && s.query.key ? "+key" : ""}${
      s.cookie?.includes("SOCS=CAI") ? "+socs" : ""
    }${s.cookie?.includes("CONSENT=") ? "+consent" : ""}`
  );

describe("createInnertubeTranscriptSource()", () => {
  test("one key-less player call and one caption call, classic format, manual en track, times in seconds", async () => {
    const transcript = await source.fetch(VIDEOS.normal.id, en);
    expect(youtube.seen.map((s) => s.endpoint)).toEqual(["player", "caption"]);
    const caption = youtube.seen[1]!.query;
    expect(caption.lang).toBe("en");
    expect(caption.kind).toBeUndefined();
    expect(caption.fmt).toBeUndefined();
    expect(caption.tlang).toBeUndefined();
    expect(transcript).toMatchObject({
      videoId: VIDEOS.normal.id,
      language: "en",
      isGenerated: false,
      isTranslated: false,
      durationSeconds: 316,
    });
    expect(transcript.cues.map((c) => [c.start, c.duration])).toEqual([[0, 1.54], [1.54, 4.16], [5.7, 3.239]]);
  });

  test("a language without a track is asked for as YouTube's translation of the default track", async () => {
    const transcript = await source.fetch(VIDEOS.normal.id, { languages: ["pt"], translate: true });
    const caption = youtube.seen.find((s) => s.endpoint === "caption")!.query;
    expect([caption.lang, caption.tlang]).toEqual(["en", "pt"]);
    expect(transcript).toMatchObject({ language: "pt", isTranslated: true });
  });

  // Issue 21: a bot check is about the address, not the client; the caller switches routes.
  test("a bot check ends the try at once: no other client, no watch page", async () => {
    youtube.setPlayerGate({ blockClients: ["ANDROID"] });
    expect((await failure(source.fetch(VIDEOS.normal.id, en))).code).toBe("upstream_blocked");
    expect(trail()).toEqual(["player:ANDROID"]);
  });

  test("a reCAPTCHA page in place of a player answer is a block at once: no other client, no watch page", async () => {
    youtube.setFault("player", {
      kind: "body",
      body: fixture("youtube_too_many_requests.html"),
      contentType: "text/html",
    });
    expect((await failure(source.fetch(VIDEOS.normal.id, en))).code).toBe("upstream_blocked");
    expect(trail()).toEqual(["player:ANDROID"]);
  });

  test("falls back to the second client when the first gets an answer it cannot read", async () => {
    youtube.setFault("player", { kind: "body", body: "{}" });
    expect((await failure(source.fetch(VIDEOS.normal.id, en))).code).toBe("upstream_error");
    expect(trail().slice(0, 2)).toEqual(["player:ANDROID", "player:IOS"]);
  });

  // Issue 15 item 6: a PoToken-gated caption URL (exp=xpe) ended the request without asking another client.
  const gated = <T extends { baseUrl: string }>(tracks: T[]): T[] =>
    tracks.map((t) => ({ ...t, baseUrl: `${t.baseUrl}&exp=xpe` }));

  test("a caption track gated by a PoToken for the first client is fetched through the next client that lists it ungated", async () => {
    youtube.setPlayerGate({ tracks: (client, tracks) => (client === "ANDROID" ? gated(tracks) : tracks) });
    const transcript = await source.fetch(VIDEOS.normal.id, en);
    expect(trail()).toEqual(["player:ANDROID", "player:IOS", "caption+socs"]);
    expect(youtube.seen[2]!.query.exp).toBeUndefined();
    expect(transcript).toMatchObject({ language: "en", isGenerated: false, isTranslated: false });
    expect(transcript.cues).toHaveLength(3);
  });

  test("a translation is fetched ungated the same way, as the same track and target language", async () => {
    youtube.setPlayerGate({ tracks: (client, tracks) => (client === "ANDROID" ? gated(tracks) : tracks) });
    const transcript = await source.fetch(VIDEOS.normal.id, { languages: ["pt"], translate: true });
    const caption = youtube.seen.find((s) => s.endpoint === "caption")!.query;
    expect([caption.lang, caption.tlang, caption.exp]).toEqual(["en", "pt", undefined]);
    expect(transcript).toMatchObject({ language: "pt", isTranslated: true });
  });

  test("another client whose choice would be a different track is not used: still upstream_error, no caption fetched", async () => {
    // IOS lists only the auto-generated track ungated: the rules picked the manual one, so it is not swapped in.
    youtube.setPlayerGate({
      tracks: (client, tracks) => (client === "ANDROID" ? gated(tracks) : tracks.filter((t) => t.kind === "asr")),
    });
    const error = await failure(source.fetch(VIDEOS.normal.id, en));
    expect([error.code, error.message]).toEqual([
      "upstream_error",
      `YouTube requires a proof-of-origin token for the captions of video ${VIDEOS.normal.id}; try again later`,
    ]);
    expect(trail()).toEqual(["player:ANDROID", "player:IOS"]);
  });

  test("when every client gets the track gated, the answer is upstream_error after asking each once", async () => {
    youtube.setPlayerGate({ tracks: (_client, tracks) => gated(tracks) });
    const error = await failure(source.fetch(VIDEOS.normal.id, en));
    expect(error.code).toBe("upstream_error");
    expect(error.message).toContain("proof-of-origin token");
    expect(trail()).toEqual(["player:ANDROID", "player:IOS"]);
  });

  test("when no key-less answer can be read, the watch page's key makes a keyed call that succeeds", async () => {
    youtube.setPlayerGate({ garbleKeyless: true });
    const transcript = await source.fetch(VIDEOS.normal.id, en);
    expect(trail()).toEqual(["player:ANDROID", "player:IOS", "watch+socs", "player:ANDROID+key", "caption+socs"]);
    expect(youtube.seen[3]!.query.key).toBe("AIzaSyAO_FJ2SlqU8Q4STEHLGCilw_Y9_11qcW8");
    expect(transcript.cues).toHaveLength(3);
  });

  test("the watch page carries the consent cookie set in advance (SOCS=CAI): today's wall is never shown", async () => {
    youtube.setPlayerGate({ garbleKeyless: true });
    youtube.setWatch("consent-current");
    const transcript = await source.fetch(VIDEOS.normal.id, en);
    expect(trail()).toEqual(["player:ANDROID", "player:IOS", "watch+socs", "player:ANDROID+key", "caption+socs"]);
    expect(transcript.cues).toHaveLength(3);
  });

  test("a wall that takes only its form's cookie (the 2021 one) is answered once with it, which later requests carry", async () => {
    youtube.setPlayerGate({ garbleKeyless: true });
    youtube.setWatch("consent");
    await source.fetch(VIDEOS.normal.id, en);
    expect(trail()).toEqual([
      "player:ANDROID",
      "player:IOS",
      "watch+socs",
      "watch+socs+consent",
      "player:ANDROID+key+consent",
      "caption+socs+consent",
    ]);
    expect(youtube.seen[3]!.cookie).toBe(`SOCS=CAI; ${CONSENT_COOKIE}`);
  });

  test("a consent wall without its v value is a clear upstream_error", async () => {
    youtube.setPlayerGate({ garbleKeyless: true });
    youtube.setWatch("consent-invalid");
    const error = await failure(source.fetch(VIDEOS.normal.id, en));
    expect(error.code).toBe("upstream_error");
    expect(error.message).toContain("cookie-consent page");
    expect(youtube.count("watch")).toBe(1);
  });

  test("a reCAPTCHA page is upstream_blocked", async () => {
    youtube.setPlayerGate({ garbleKeyless: true });
    youtube.setWatch("recaptcha");
    expect((await failure(source.fetch(VIDEOS.normal.id, en))).code).toBe("upstream_blocked");
  });

  test("a bot check is upstream_blocked after one player call", async () => {
    const error = await failure(source.fetch(VIDEOS.botCheck.id, en));
    expect(error.code).toBe("upstream_blocked");
    expect(trail()).toEqual(["player:ANDROID"]);
  });

  test.each(
    [
      ["unavailable", "video_unavailable"],
      ["ageRestricted", "video_age_restricted"],
    ] as const,
  )("%s is final after one player call (no other client, no watch page)", async (name, code) => {
    expect((await failure(source.fetch(VIDEOS[name].id, en))).code).toBe(code);
    expect(trail()).toEqual(["player:ANDROID"]);
  });

  test("an unplayable video is asked of the second client, not of the watch page", async () => {
    expect((await failure(source.fetch(VIDEOS.unplayable.id, en))).code).toBe("video_unplayable");
    expect(trail()).toEqual(["player:ANDROID", "player:IOS"]);
  });

  test("an srv3 caption body is read in seconds", async () => {
    youtube.setCaption(VIDEOS.normal.id, SRV3);
    const transcript = await source.fetch(VIDEOS.normal.id, en);
    expect(transcript.cues.map((c) => c.start)).toEqual([0, 1.54, 5.7]);
  });

  test("HTTP 429 is upstream_blocked with YouTube's Retry-After, and no other client is tried", async () => {
    youtube.setFault("player", { kind: "status", status: 429, headers: { "retry-after": "120" } });
    const error = await failure(source.fetch(VIDEOS.normal.id, en));
    expect([error.code, error.retryAfterSeconds]).toEqual(["upstream_blocked", 120]);
    expect(youtube.count("player")).toBe(1);
  });

  test("refuses to be built without a client: the default list is the configuration's, from the client table", () => {
    expect(() => createInnertubeTranscriptSource({ baseUrl: youtube.origin, clients: [], timeoutMs: 2_000 })).toThrow(
      "at least one client",
    );
  });

  test("a request that gets no answer ends as upstream_timeout after the time limit", async () => {
    const quick = createInnertubeTranscriptSource({ baseUrl: youtube.origin, clients, timeoutMs: 300 });
    youtube.setFault("caption", { kind: "hang" });
    const started = performance.now();
    expect((await failure(quick.fetch(VIDEOS.normal.id, en))).code).toBe("upstream_timeout");
    expect(performance.now() - started).toBeLessThan(1_500);
  });

  test("the caller's abort signal stops the fetch", async () => {
    youtube.setFault("player", { kind: "hang" });
    const started = performance.now();
    const error = await failure(source.fetch(VIDEOS.normal.id, { ...en, signal: AbortSignal.timeout(100) }));
    expect(error.code).toBe("upstream_timeout");
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});

describe("createInnertubeTranscriptSource() reading a second track", () => {
  test("a rereading fetch right after a fetch of the video sends only its caption request, and counts it", async () => {
    const first = await source.fetch(VIDEOS.normal.id, { languages: ["es"], translate: true });
    expect(first).toMatchObject({ language: "es", isTranslated: false, videoLanguage: "en" });
    youtube.reset();
    let counted = 0;
    const second = await source.fetch(VIDEOS.normal.id, {
      languages: ["en"],
      translate: true,
      rereading: true,
      observer: { request: () => (counted += 1) },
    });
    expect(second.language).toBe("en");
    expect(youtube.seen.map((s) => s.endpoint)).toEqual(["caption"]);
    expect(youtube.seen[0]!.query.lang).toBe("en");
    expect(counted).toBe(1);
  });

  test("without rereading, or for a video not read moments ago, the player is asked again, and every request is counted", async () => {
    let counted = 0;
    await source.fetch(VIDEOS.normal.id, { ...en, observer: { request: () => (counted += 1) } });
    expect(youtube.seen.map((s) => s.endpoint)).toEqual(["player", "caption"]);
    expect(counted).toBe(2);
    const fresh = createInnertubeTranscriptSource({ baseUrl: youtube.origin, clients, timeoutMs: 2_000 });
    youtube.reset();
    await fresh.fetch(VIDEOS.normal.id, { ...en, rereading: true });
    expect(youtube.seen.map((s) => s.endpoint)).toEqual(["player", "caption"]);
  });

  test("a player response older than playerReuseMs is not reused", async () => {
    const stale = createInnertubeTranscriptSource({
      baseUrl: youtube.origin,
      clients,
      timeoutMs: 2_000,
      playerReuseMs: 0,
    });
    await stale.fetch(VIDEOS.normal.id, en);
    youtube.reset();
    await stale.fetch(VIDEOS.normal.id, { languages: ["es"], translate: true, rereading: true });
    expect(youtube.seen.map((s) => s.endpoint)).toEqual(["player", "caption"]);
  });
});
