/** @module Tests of player-session.ts: retired clients moved past, every client retired, the watch page's keyed call. */
import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { ClientTrail } from "../../../src/adapters/youtube/client-health.ts";
import { innertubeClients } from "../../../src/adapters/youtube/innertube-clients.ts";
import { createPlayerSessions } from "../../../src/adapters/youtube/player-session.ts";
import { isRetired } from "../../../src/adapters/youtube/retired-client.ts";
import { createYoutubeTransport } from "../../../src/adapters/youtube/transport.ts";
import { startFakeYoutube } from "../../support/fake/youtube.ts";
import { failure } from "../../support/failure.ts";
import { VIDEOS } from "../../support/fixtures.ts";

const youtube = startFakeYoutube();
const transport = createYoutubeTransport({ baseUrl: youtube.origin, timeoutMs: 2_000 });
afterAll(() => youtube.close());
beforeEach(() => youtube.reset());

const clients = innertubeClients([{ name: "ANDROID", version: "20.10.38" }, { name: "IOS", version: "21.26.4" }]);
const sessions = createPlayerSessions({ clients });
const at = (videoId: string = VIDEOS.normal.id) => ({ transport, videoId, trail: new ClientTrail() });
const trail = () =>
  youtube.seen.map((s) =>
    `${s.endpoint}${s.client ? `:${s.client} ${s.clientVersion}` : ""}${s.query.key ? "+key" : ""}`
  );

describe("createPlayerSessions()", () => {
  test("a client YouTube refuses as retired (HTTP 400) is passed for the next: IOS answers", async () => {
    const context = at();
    const session = await sessions.session(context);
    expect(session.client.name).toBe("IOS");
    expect(session.info.tracks).toHaveLength(9);
    expect(context.trail.answers).toEqual({ ANDROID: "retired", IOS: "ok" });
    expect(trail()).toEqual(["player:ANDROID 20.10.38", "player:IOS 21.26.4"]);
  });

  test("every client retired: the watch page is asked for its verdict, no keyed call, and the refusal names them", async () => {
    youtube.setRetirement({ ANDROID: { current: "21", form: "400" }, IOS: { current: "22", form: "unsupported" } });
    const context = at();
    const error = await failure(sessions.session(context));
    expect(isRetired(error)).toBe(true);
    expect(error.message).toContain("ANDROID 20.10.38, IOS 21.26.4");
    expect(trail()).toEqual(["player:ANDROID 20.10.38", "player:IOS 21.26.4", "watch"]);
  });

  test("the watch page's keyed call goes out as the first client not retired in this try", async () => {
    youtube.setPlayerGate({ garbleKeyless: true });
    const session = await sessions.session(at());
    expect(session.client.name).toBe("IOS");
    expect(trail()).toEqual(["player:ANDROID 20.10.38", "player:IOS 21.26.4", "watch", "player:IOS 21.26.4+key"]);
  });

  test("keyless() from a later client skips nothing it was not asked to", async () => {
    const context = at();
    const later = await sessions.keyless(context, 1);
    expect(later instanceof Error ? later.message : later.client.name).toBe("IOS");
    expect(trail()).toEqual(["player:IOS 21.26.4"]);
  });
});
