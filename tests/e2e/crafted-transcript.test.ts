/** @module End-to-end test that a crafted caption track is cut to the cap and read without stalling other keys. */
import { describe, expect, test } from "bun:test";
import { craftedCues } from "../support/crafted-transcript.ts";
import { captionXml } from "../support/long-transcript.ts";
import { servicePerFile } from "../support/service/per-file.ts";
import { VIDEOS, watchUrl } from "../support/fixtures.ts";
import { postChat, targetFromEnv } from "../support/service/process.ts";

const UPLOADER = "e2e-crafted-uploader-key-0123456789";
const OTHER = "e2e-cheap-caller-key-0123456789abc";
/** How long a cached answer to another key may take while the crafted track is read (it takes a few ms alone). */
const STALL_BOUND_MS = 300;

// Without an LLM key the offline engine answers: a summary is the transcript's most central passages (TextRank),
// ranked on the event loop with nothing else in between.
const rig = servicePerFile(({ youtube }) => ({
  API_KEYS: `${UPLOADER},${OTHER}`,
  YOUTUBE_BASE_URL: youtube.origin,
}), { stopSignal: "SIGKILL" });

describe(`a crafted caption track (${targetFromEnv()})`, () => {
  test("is cut to the transcript cap and summarised offline, while another key's cached answers keep coming within 300 ms", async () => {
    const cheap = () =>
      postChat(rig.service.url, { url: watchUrl("normal"), prompt: "What is this video about?" }, {
        "x-api-key": OTHER,
      });
    expect((await cheap()).status).toBe(200);
    // 1.5 million characters of lines of 70 words, each word said in a sixth of the lines: the most pairs of lines
    // sharing words, about 1.6 MB of caption XML (YouTube's responses are read up to 10 MiB).
    const cues = craftedCues("shared-words", { cues: 100_000, characters: 1_000_000 });
    rig.youtube.setCaption(VIDEOS.twoTracks.id, captionXml(cues));

    let done = false;
    const crafted = postChat(rig.service.url, { url: watchUrl("twoTracks") }, { "x-api-key": UPLOADER })
      .finally(() => (done = true));
    const latencies: number[] = [];
    while (!done) {
      const started = performance.now();
      const response = await cheap();
      latencies.push(performance.now() - started);
      expect(response.status).toBe(200);
      await Bun.sleep(10);
    }
    const answered = await crafted;
    expect(answered.status).toBe(200);
    const cut = answered.headers.get("transcript-cut");
    expect(cut).toMatch(/^until=\d+; cues=\d+; characters=\d+$/);
    expect(cut).toContain(`cues=${cues.length}`);
    expect(latencies.length).toBeGreaterThan(0);
    expect(Math.max(...latencies)).toBeLessThan(STALL_BOUND_MS);
  });
});
