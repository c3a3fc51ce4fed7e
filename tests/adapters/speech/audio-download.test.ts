/** @module Tests of audio-download.ts against a loopback server: ranged downloads over the given transport. */
import { afterAll, describe, expect, test } from "bun:test";
import { downloadAudio } from "../../../src/adapters/speech/audio-download.ts";
import { createYoutubeTransport } from "../../../src/adapters/youtube/transport.ts";
import { isAppError } from "../../../src/domain/errors.ts";

const BYTES = new Uint8Array(10_000).map((_, i) => i % 251);
const seen: { path: string; range: string | null }[] = [];
const server = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch(request) {
    const url = new URL(request.url);
    seen.push({ path: url.pathname + url.search, range: request.headers.get("range") });
    if (url.searchParams.get("mode") === "forbidden") return new Response("", { status: 403 });
    if (url.searchParams.get("mode") === "limited") {
      return new Response("", { status: 429, headers: { "retry-after": "30" } });
    }
    if (url.searchParams.get("mode") === "whole") return new Response(BYTES.slice());
    if (url.searchParams.get("mode") === "recaptcha") {
      return new Response('<html><div class="g-recaptcha" data-sitekey="x"></div></html>', {
        headers: { "content-type": "text/html; charset=UTF-8" },
      });
    }
    const [, start, end] = /bytes=(\d+)-(\d+)/.exec(request.headers.get("range") ?? "")!.map(Number);
    const last = Math.min(end!, BYTES.length - 1);
    return new Response(BYTES.slice(start, last + 1), {
      status: 206,
      headers: { "content-range": `bytes ${start}-${last}/${BYTES.length}` },
    });
  },
});
afterAll(() => server.stop(true));

const transport = createYoutubeTransport({ baseUrl: `http://127.0.0.1:${server.port}`, timeoutMs: 2_000 });
const format = (mode: string, contentLength?: number) => ({
  itag: 249,
  mimeType: "audio/webm",
  bitrate: 1,
  contentLength,
  url: `https://rr1.googlevideo.com/videoplayback?itag=249&mode=${mode}`,
});

async function refusal(promise: Promise<unknown>) {
  return await promise.then(() => {
    throw new Error("expected a refusal");
  }, (error) => error);
}

describe("downloadAudio", () => {
  test("fetches the whole file in ranges on the transport's origin, learning the size from content-range", async () => {
    seen.length = 0;
    const bytes = await downloadAudio(transport, "v", format("ranges"), { maxBytes: 1_000_000, rangeBytes: 3_000 });
    expect(bytes).toEqual(BYTES);
    expect(seen.map((s) => s.range)).toEqual([
      "bytes=0-2999",
      "bytes=3000-5999",
      "bytes=6000-8999",
      "bytes=9000-11999",
    ]);
    expect(seen.every((s) => s.path.startsWith("/videoplayback?itag=249"))).toBe(true);
  });

  test("takes a server that ignores ranges (no content-range) at its word: the whole file in one answer", async () => {
    expect(await downloadAudio(transport, "v", format("whole"), { maxBytes: 1_000_000, rangeBytes: 20_000 })).toEqual(
      BYTES,
    );
  });

  test("a file over the cap, or a 403, is 422 transcript_unavailable; a 429 stays 503 upstream_blocked", async () => {
    const tooLarge = await refusal(
      downloadAudio(transport, "v", format("ranges"), { maxBytes: 5_000, rangeBytes: 3_000 }),
    );
    expect(isAppError(tooLarge, "transcript_unavailable")).toBe(true);
    const forbidden = await refusal(downloadAudio(transport, "v", format("forbidden"), { maxBytes: 1_000_000 }));
    expect(isAppError(forbidden, "transcript_unavailable")).toBe(true);
    expect(forbidden.message).toContain("HTTP 403");
    expect(
      isAppError(
        await refusal(downloadAudio(transport, "v", format("limited"), { maxBytes: 1_000_000 })),
        "upstream_blocked",
      ),
    ).toBe(true);
  });

  test("a reCAPTCHA page where the audio should be is a block (503 upstream_blocked, the route's to move from), not unreadable audio", async () => {
    const error = await refusal(downloadAudio(transport, "v", format("recaptcha"), { maxBytes: 1_000_000 }));
    expect(isAppError(error, "upstream_blocked")).toBe(true);
  });
});
