/** @module Tests of package-identity.ts: the youtube-transcript package's requests present the service's identity. */
import { describe, expect, test } from "bun:test";
import { BROWSER_USER_AGENT, innertubeClient } from "../../../src/adapters/youtube/innertube-clients.ts";
import { presentedAs } from "../../../src/adapters/youtube/package-identity.ts";

/** A fetch that records what it was asked. */
function recorder() {
  const asked: { url: string; headers: Headers; body?: string }[] = [];
  const fetcher = ((input: string | URL | Request, init: RequestInit = {}) => {
    asked.push({ url: String(input), headers: new Headers(init.headers), body: init.body as string | undefined });
    return Promise.resolve(new Response("{}"));
  }) as typeof fetch;
  return { asked, fetcher };
}

describe("presentedAs()", () => {
  test("the package's player call (ANDROID 20.10.38 of its own) goes out as the given client", async () => {
    const { asked, fetcher } = recorder();
    const ios = innertubeClient("IOS", "21.26.4");
    await presentedAs(fetcher, ios)("https://www.youtube.com/youtubei/v1/player?prettyPrint=false", {
      method: "POST",
      headers: { "Content-Type": "application/json", "User-Agent": "com.google.android.youtube/20.10.38" },
      body: JSON.stringify({ context: { client: { clientName: "ANDROID", clientVersion: "20.10.38" } }, videoId: "x" }),
    });
    const [call] = asked;
    expect(call!.headers.get("user-agent")).toBe(ios.userAgent!);
    expect(call!.headers.get("x-youtube-client-name")).toBe("5");
    expect(call!.headers.get("content-type")).toBe("application/json");
    const body = JSON.parse(call!.body!);
    expect(body.videoId).toBe("x");
    expect(body.context.client).toMatchObject({
      clientName: "IOS",
      clientVersion: "21.26.4",
      deviceModel: "iPhone16,2",
    });
    expect(call!.body).not.toContain("20.10.38");
  });

  test("its other requests go out as a current browser with the consent cookie", async () => {
    const { asked, fetcher } = recorder();
    await presentedAs(fetcher, innertubeClient("ANDROID"))("https://www.youtube.com/watch?v=x", {
      headers: { "User-Agent": "Mozilla/5.0 ... Chrome/85.0.4183.83" },
    });
    expect(asked[0]!.headers.get("user-agent")).toBe(BROWSER_USER_AGENT);
    expect(asked[0]!.headers.get("cookie")).toBe("SOCS=CAI");
  });
});
