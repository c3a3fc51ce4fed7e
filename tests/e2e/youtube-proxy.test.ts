/** @module End-to-end test that every YouTube request goes through the configured proxy. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { VIDEOS } from "../support/fixtures.ts";
import { targetFromEnv } from "../support/service/process.ts";
import { ask, startYoutubeRig, type YoutubeRig } from "../support/service/youtube.ts";

/** A loopback forward proxy for plain-HTTP targets, recording each request's absolute URL. */
function startProxy() {
  const seen: string[] = [];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      seen.push(request.url);
      const body = request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer();
      return await fetch(request.url, { method: request.method, headers: request.headers, body, redirect: "manual" });
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, seen, close: () => server.stop(true) };
}

const proxy = startProxy();
let rig: YoutubeRig;

beforeAll(async () => {
  rig = await startYoutubeRig({ HTTPS_PROXY: proxy.url });
});
afterAll(async () => {
  await rig?.close();
  await proxy.close();
});

describe(`HTTPS_PROXY (${targetFromEnv()})`, () => {
  test("every YouTube request goes through the proxy, to the configured origin", async () => {
    const outcome = await ask(rig.service, VIDEOS.normal.id);
    expect(outcome.status).toBe(200);
    const viaProxy = proxy.seen.filter((url) => url.startsWith(rig.youtube.origin));
    expect(viaProxy.map((url) => new URL(url).pathname)).toEqual(["/youtubei/v1/player", "/api/timedtext"]);
    expect(rig.youtube.seen).toHaveLength(2);
  });
});
