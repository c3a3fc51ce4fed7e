/** @module End-to-end tests of InnerTube client identities: a retired client survived, all retired refused, seen. */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import type { RetiredForm } from "../support/fake/youtube-rules.ts";
import { fixture, VIDEOS } from "../support/fixtures.ts";
import { parseSamples, sampleKey } from "../support/prometheus-text.ts";
import { requestLogLines } from "../support/request-log-lines.ts";
import { adminUrlOf, postChat, targetFromEnv } from "../support/service/process.ts";
import { ask, KEY, startYoutubeRig, type YoutubeRig } from "../support/service/youtube.ts";

/** "At once": a few loopback requests, far from any time limit (YOUTUBE_TIMEOUT_MS is 1000 in the rig). */
const AT_ONCE_MS = 2_000;
let rig: YoutubeRig;
let admin: string;

beforeAll(async () => {
  // ANDROID pinned at the version YouTube retired in 2026; IOS at today's. One block would open the route's breaker:
  // a retired client must never count as one.
  rig = await startYoutubeRig({
    YOUTUBE_CLIENTS: "ANDROID:20.10.38,IOS:21.26.4",
    YOUTUBE_ROUTE_FAILURES: "1",
    ADMIN_PORT: "0",
  });
  admin = await adminUrlOf(rig.service);
});
afterAll(() => rig?.close());
beforeEach(() => {
  rig.youtube.reset();
  rig.llm.reset();
});

const players = () =>
  rig.youtube.seen.filter((s) => s.endpoint === "player").map((s) => `${s.client} ${s.clientVersion}`);
const scrape = async () => parseSamples(await (await fetch(`${admin}/metrics`)).text());
const k = sampleKey;

/** `POST /chat` for a video, with the log line the service wrote for it. */
async function askLogged(videoId: string) {
  const response = await postChat(rig.service.url, { url: `https://www.youtube.com/watch?v=${videoId}` }, {
    "x-api-key": KEY,
  });
  const body = await response.json();
  const [line] = await requestLogLines(rig.service, response);
  return { status: response.status, body, line: line! };
}

describe(`a retired client survived (${targetFromEnv()})`, () => {
  test("ANDROID below 21 answered with YouTube's 400: every video still served, through IOS; the log says which", async () => {
    for (const videoId of [VIDEOS.normal.id, VIDEOS.twoTracks.id]) {
      rig.youtube.reset();
      const { status, line } = await askLogged(videoId);
      expect(status).toBe(200);
      expect(players()).toEqual(["ANDROID 20.10.38", "IOS 21.26.4"]);
      expect([line.youtube_client, line.youtube_clients]).toEqual(["IOS", "ANDROID=retired,IOS=ok"]);
    }
    const metrics = await scrape();
    expect(metrics.get(k("vcs_youtube_client_up", { client: "ANDROID", version: "20.10.38" }))).toBe(0);
    expect(metrics.get(k("vcs_youtube_client_up", { client: "IOS", version: "21.26.4" }))).toBe(1);
  });

  test.each(["400", "unsupported", "latest-version"] as const)(
    "ANDROID and IOS both retired (%s): 502 upstream_error naming both and YOUTUBE_CLIENTS, at once, counted as retired",
    async (form: RetiredForm) => {
      rig.youtube.setRetirement({ ANDROID: { current: "21", form }, IOS: { current: "22", form } });
      const before = await scrape();
      const started = performance.now();
      const { status, body, line } = await askLogged(VIDEOS.normal.id);
      expect([status, body.error.code]).toEqual([502, "upstream_error"]);
      expect(performance.now() - started).toBeLessThan(AT_ONCE_MS);
      for (const named of ["ANDROID 20.10.38", "IOS 21.26.4", "YOUTUBE_CLIENTS"]) {
        expect(body.error.message).toContain(named);
      }
      expect(body.error.message).not.toMatch(/unavailable|no longer supported|latest version/i);
      expect(players()).toEqual(["ANDROID 20.10.38", "IOS 21.26.4"]);
      expect([line.error_code, line.youtube_client, line.youtube_clients]).toEqual([
        "upstream_error",
        undefined,
        "ANDROID=retired,IOS=retired",
      ]);
      const after = await scrape();
      const retired = k("vcs_youtube_requests_total", { call: "player", outcome: "retired" });
      expect((after.get(retired) ?? 0) - (before.get(retired) ?? 0)).toBe(2);
      expect(after.get(k("vcs_youtube_client_up", { client: "IOS", version: "21.26.4" }))).toBe(0);
      // Not a block: the route (one failure opens it here) still serves the next request once IOS is served again.
      expect(after.get(k("vcs_youtube_route_up", { route: "direct" }))).toBe(1);
      rig.youtube.reset();
      expect((await ask(rig.service, VIDEOS.normal.id)).status).toBe(200);
    },
  );

  test.each(["unsupported", "latest-version"] as const)(
    "ANDROID refused with the ERROR form (%s): served through IOS, never video_unavailable",
    async (form: RetiredForm) => {
      rig.youtube.setRetirement({ ANDROID: { current: "21", form } });
      const { status, line } = await askLogged(VIDEOS.normal.id);
      expect(status).toBe(200);
      expect(players()).toEqual(["ANDROID 20.10.38", "IOS 21.26.4"]);
      expect(line.youtube_clients).toBe("ANDROID=retired,IOS=ok");
    },
  );

  test("the youtube-transcript fallback presents a client the service has not seen retired, never its own", async () => {
    // No answer the primary path can read (no playability status), but one the package reads its tracks from.
    const odd = JSON.parse(fixture(VIDEOS.normal.player));
    delete odd.playabilityStatus;
    rig.youtube.setFault("player", { kind: "body", body: JSON.stringify(odd) });
    const outcome = await ask(rig.service, VIDEOS.normal.id, { prompt: "What is the test?" });
    expect(outcome.status).toBe(200);
    const calls = rig.youtube.seen.filter((s) => s.endpoint === "player");
    // ANDROID (retired), IOS (unreadable), IOS keyed after the watch page (unreadable), then the package's call.
    expect(calls.map((s) => `${s.client} ${s.clientVersion}`)).toEqual([
      "ANDROID 20.10.38",
      "IOS 21.26.4",
      "IOS 21.26.4",
      "IOS 21.26.4",
    ]);
    const packaged = calls.at(-1)!;
    expect(packaged.body).not.toContain("contentCheckOk");
    expect(packaged.headers).toMatchObject({ clientName: "5", clientVersion: "21.26.4" });
    expect(packaged.headers.userAgent).toContain("com.google.ios.youtube/21.26.4");
    const caption = rig.youtube.seen.find((s) => s.endpoint === "caption")!;
    expect(caption.headers.userAgent).toMatch(/^Mozilla\/5\.0 .*Chrome\/1[5-9]\d\./);
  });
});

describe(`today's identities (${targetFromEnv()})`, () => {
  let fresh: YoutubeRig;
  beforeAll(async () => {
    fresh = await startYoutubeRig();
  });
  afterAll(() => fresh?.close());

  test("with no YOUTUBE_CLIENTS, ANDROID 21.26.364 is asked first, as the app asks: headers, user agent, device", async () => {
    fresh.youtube.setPlayerGate({ garbleKeyless: true });
    expect((await ask(fresh.service, VIDEOS.normal.id)).status).toBe(200);
    const [first, second] = fresh.youtube.seen.filter((s) => s.endpoint === "player");
    expect([first!.client, first!.clientVersion, second!.client, second!.clientVersion]).toEqual([
      "ANDROID",
      "21.26.364",
      "IOS",
      "21.26.4",
    ]);
    expect(first!.headers).toMatchObject({
      clientName: "3",
      clientVersion: "21.26.364",
      userAgent: "com.google.android.youtube/21.26.364 (Linux; U; Android 11) gzip",
    });
    expect(JSON.parse(first!.body!).context.client).toMatchObject({
      androidSdkVersion: 30,
      osName: "Android",
      osVersion: "11",
      hl: "en",
      timeZone: "UTC",
    });
    expect(second!.headers).toMatchObject({ clientName: "5", clientVersion: "21.26.4" });
    expect(JSON.parse(second!.body!).context.client).toMatchObject({ deviceModel: "iPhone16,2", osName: "iPhone" });
    // The browser's requests look like a browser's, with the consent cookie set in advance.
    for (const endpoint of ["watch", "caption"] as const) {
      const request = fresh.youtube.seen.find((s) => s.endpoint === endpoint)!;
      expect(request.headers.userAgent).toMatch(/^Mozilla\/5\.0 /);
      expect(request.cookie).toContain("SOCS=CAI");
    }
  });
});
