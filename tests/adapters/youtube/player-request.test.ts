/** @module Tests of player-request.ts: the call as the app sends it, and a 400 read as a retired client. */
import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { innertubeClient } from "../../../src/adapters/youtube/innertube-clients.ts";
import { askPlayer, requestPlayer } from "../../../src/adapters/youtube/player-request.ts";
import { isRetired } from "../../../src/adapters/youtube/retired-client.ts";
import { createYoutubeTransport } from "../../../src/adapters/youtube/transport.ts";
import { startFakeYoutube } from "../../support/fake/youtube.ts";
import { failure } from "../../support/failure.ts";
import { VIDEOS } from "../../support/fixtures.ts";

const youtube = startFakeYoutube();
const transport = createYoutubeTransport({ baseUrl: youtube.origin, timeoutMs: 2_000 });
afterAll(() => youtube.close());
beforeEach(() => youtube.reset());

describe("requestPlayer() and askPlayer()", () => {
  test("the call carries the app's context, user agent and X-YouTube-Client-* headers, without a key", async () => {
    const client = innertubeClient("IOS", "21.26.4");
    const info = await askPlayer(transport, VIDEOS.normal.id, { client });
    expect(info.lengthSeconds).toBe(316);
    const [call] = youtube.seen;
    expect(call!.query).toEqual({ prettyPrint: "false" });
    expect(call!.headers).toMatchObject({ clientName: "5", clientVersion: "21.26.4", userAgent: client.userAgent });
    const body = JSON.parse(call!.body!);
    expect(body).toMatchObject({ videoId: VIDEOS.normal.id, contentCheckOk: true, racyCheckOk: true });
    expect(body.context.client).toMatchObject({
      clientName: "IOS",
      clientVersion: "21.26.4",
      osVersion: "18.3.2.22D82",
    });
  });

  test("YouTube's 400 (FAILED_PRECONDITION) to an old version is a retired client naming it", async () => {
    const error = await failure(
      requestPlayer(transport, VIDEOS.normal.id, { client: innertubeClient("ANDROID", "20.10.38") }),
    );
    expect(isRetired(error)).toBe(true);
    expect(error.message).toContain("ANDROID 20.10.38");
  });

  test("a 400 answer with any body is the same: the request is the same for every video", async () => {
    youtube.setFault("player", { kind: "status", status: 400, body: "<html>Bad Request</html>" });
    expect(isRetired(await failure(askPlayer(transport, VIDEOS.normal.id, { client: innertubeClient("ANDROID") }))))
      .toBe(
        true,
      );
  });

  test("an ERROR answer asking for a newer app is a retired client naming the client that asked", async () => {
    youtube.setRetirement({ ANDROID: { current: "22", form: "unsupported" } });
    const error = await failure(askPlayer(transport, VIDEOS.normal.id, { client: innertubeClient("ANDROID") }));
    expect(isRetired(error)).toBe(true);
    expect(error.message).toContain("ANDROID 21.26.364");
  });

  test("other statuses stay what they were: 500 upstream_error, 429 upstream_blocked", async () => {
    youtube.setFault("player", { kind: "status", status: 500 });
    const broken = await failure(askPlayer(transport, VIDEOS.normal.id, { client: innertubeClient("ANDROID") }));
    expect([broken.code, isRetired(broken)]).toEqual(["upstream_error", false]);
    youtube.setFault("player", { kind: "status", status: 429 });
    expect((await failure(askPlayer(transport, VIDEOS.normal.id, { client: innertubeClient("ANDROID") }))).code).toBe(
      "upstream_blocked",
    );
  });
});
