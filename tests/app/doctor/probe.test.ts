/** @module Tests of probe.ts: one client on one route, each step's answer in a word, never a throw. */
import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { innertubeClient } from "../../../src/adapters/youtube/innertube-clients.ts";
import { createYoutubeTransport } from "../../../src/adapters/youtube/transport.ts";
import { probeClient } from "../../../src/app/doctor/probe.ts";
import { startFakeYoutube } from "../../support/fake/youtube.ts";
import { VIDEOS } from "../../support/fixtures.ts";

const youtube = startFakeYoutube();
afterAll(() => youtube.close());
beforeEach(() => youtube.reset());

const probe = (client = innertubeClient("VISIONOS"), videoId: string = VIDEOS.normal.id, timeoutMs = 2_000) =>
  probeClient({
    transport: createYoutubeTransport({ baseUrl: youtube.origin, timeoutMs }),
    videoId,
    client,
    baseUrl: youtube.origin,
  });

describe("probeClient()", () => {
  test("a served client: its tracks, its captions read, its audio reached with its own user agent", async () => {
    expect(await probe()).toEqual({ player: "ok", tracks: 9, captions: "ok (3 cues)", audio: "ok" });
    const audio = youtube.seen.find((s) => s.endpoint === "audio")!;
    expect(audio.headers.userAgent).toBe(innertubeClient("VISIONOS").userAgent!);
  });

  test("a retired client stops at the player call", async () => {
    expect(await probe(innertubeClient("ANDROID", "20.10.38"))).toEqual({
      player: "retired",
      tracks: null,
      captions: "-",
      audio: "-",
    });
    expect(youtube.seen.map((s) => s.endpoint)).toEqual(["player"]);
  });

  test("a video without captions, a video that is gone, a caption request that never ends", async () => {
    expect(await probe(undefined, VIDEOS.captionsDisabled.id)).toMatchObject({
      player: "ok",
      tracks: 0,
      captions: "none",
    });
    expect((await probe(undefined, VIDEOS.unavailable.id)).player).toBe("unavailable");
    youtube.setFault("caption", { kind: "hang" });
    expect((await probe(undefined, VIDEOS.normal.id, 300)).captions).toBe("timeout");
  });
});
