/** @module End-to-end tests of YouTube's 429 on translated tracks: asked again, read untranslated, not a block. */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { VIDEOS } from "../support/fixtures.ts";
import { parseSamples, sampleKey } from "../support/prometheus-text.ts";
import { adminUrlOf, targetFromEnv } from "../support/service/process.ts";
import { ask, startYoutubeRig, type YoutubeRig } from "../support/service/youtube.ts";

let rig: YoutubeRig;
let admin: string;

beforeAll(async () => {
  // One block opens the route's breaker: a translation YouTube limits must not.
  rig = await startYoutubeRig({ ADMIN_PORT: "0", YOUTUBE_ROUTE_FAILURES: "1", YOUTUBE_ROUTE_COOLDOWN_MS: "60000" });
  admin = await adminUrlOf(rig.service);
});
afterAll(() => rig?.close());
beforeEach(() => {
  rig.youtube.reset();
  rig.llm.reset();
});

const captions = () => rig.youtube.seen.filter((s) => s.endpoint === "caption");
const routeUp = async () =>
  parseSamples(await (await fetch(`${admin}/metrics`)).text()).get(
    sampleKey("vcs_youtube_route_up", { route: "direct" }),
  );

// The normal video has no Portuguese track: a Portuguese answer asks YouTube to translate its English one.
describe(`a 429 on a translated caption track (${targetFromEnv()})`, () => {
  test("refused when asked plainly, served when asked as YouTube's web player asks: 200, translated", async () => {
    rig.youtube.setTranslationLimit("plain");
    const outcome = await ask(rig.service, VIDEOS.normal.id, { language: "pt" });
    expect(outcome.status).toBe(200);
    const [plain, web] = captions();
    expect([plain!.query.tlang, web!.query.tlang]).toEqual(["pt", "pt"]);
    expect([web!.query.c, web!.query.cplayer]).toEqual(["WEB", "UNIPLAYER"]);
    expect(web!.headers.referer).toContain(`/watch?v=${VIDEOS.normal.id}`);
    expect(captions()).toHaveLength(2);
  });

  test("refused however asked: read in the original language, 200, and the healthy route's breaker stays closed", async () => {
    rig.youtube.setTranslationLimit("all");
    const outcome = await ask(rig.service, VIDEOS.normal.id, { language: "pt" });
    expect(outcome.status).toBe(200);
    expect(captions().map((s) => s.query.tlang)).toEqual(["pt", "pt", undefined]);
    expect(captions().at(-1)!.query.lang).toBe("en");
    // The answer is still written in Portuguese, from the English transcript.
    expect(rig.llm.calls.at(-1)!.text).toContain("[0:00] Hey, this is just a test");
    expect(await routeUp()).toBe(1);
    rig.youtube.reset();
    expect((await ask(rig.service, VIDEOS.twoTracks.id)).status).toBe(200);
  });

  test("when untranslated requests are refused too, it is a block: 503, and the route's breaker opens", async () => {
    rig.youtube.setFault("caption", { kind: "status", status: 429 });
    const outcome = await ask(rig.service, VIDEOS.normal.id, { language: "pt" });
    expect([outcome.status, outcome.code]).toEqual([503, "upstream_blocked"]);
    expect(captions().map((s) => s.query.tlang)).toEqual(["pt", "pt", undefined]);
    expect(await routeUp()).toBe(0);
    rig.youtube.reset();
    const skipped = await ask(rig.service, VIDEOS.twoTracks.id);
    expect([skipped.status, skipped.code]).toEqual([503, "upstream_blocked"]);
    expect(rig.youtube.seen).toHaveLength(0);
  });
});
