/** @module Tests of innertube-transcript-source.ts handing caption-less videos to speech-to-text with its transport. */
import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import type { SpeechInput, SpeechReader } from "../../../src/adapters/youtube/speech-fallback.ts";
import { createInnertubeTranscriptSource } from "../../../src/adapters/youtube/innertube-transcript-source.ts";
import type { Transcript } from "../../../src/domain/transcript.ts";
import { startFakeYoutube } from "../../support/fake/youtube.ts";
import { VIDEOS } from "../../support/fixtures.ts";
import { innertubeClients } from "../../../src/adapters/youtube/innertube-clients.ts";

const youtube = startFakeYoutube();
afterAll(() => youtube.close());
beforeEach(() => youtube.reset());

/** A speech reader that records what it was handed and answers a one-cue transcript. */
function recordingSpeech() {
  const inputs: SpeechInput[] = [];
  const speech: SpeechReader = {
    async read(input) {
      inputs.push(input);
      return {
        videoId: input.videoId,
        language: "en",
        isGenerated: true,
        isTranslated: false,
        cues: [{ start: 0, duration: 1, text: "heard" }],
        speech: { audioSeconds: 1, uploads: 1, sttMs: 1 },
      } satisfies Transcript;
    },
  };
  return { speech, inputs };
}

const clients = innertubeClients([{ name: "ANDROID", version: "21.26.364" }]);

describe("the InnerTube source's speech fallback (STT=groq)", () => {
  test("a video whose player response lists no caption track is handed to speech with its player facts and this fetch's own transport", async () => {
    const { speech, inputs } = recordingSpeech();
    const source = createInnertubeTranscriptSource({ baseUrl: youtube.origin, clients, timeoutMs: 2_000, speech });
    let requests = 0;
    const deadline = Date.now() + 60_000;
    const transcript = await source.fetch(VIDEOS.captionsDisabled.id, {
      languages: ["en"],
      translate: true,
      deadline,
      observer: { request: () => requests++ },
    });
    expect(transcript.speech).toBeDefined();
    expect(inputs).toHaveLength(1);
    expect(inputs[0]!.videoId).toBe(VIDEOS.captionsDisabled.id);
    expect(inputs[0]!.info.audioFormats!.length).toBe(5);
    expect(inputs[0]!.query.deadline).toBe(deadline);
    // The transport handed over is the one that made the player call: its requests count on this fetch.
    expect(requests).toBe(1);
    await inputs[0]!.transport.text("/youtubei/v1/player", {
      method: "POST",
      body: JSON.stringify({ videoId: VIDEOS.normal.id }),
    });
    expect(requests).toBe(2);
  });

  test("a second reading (rereading) of a caption-less video makes its own player call before speech: audio URLs are bound to the asking address", async () => {
    const { speech, inputs } = recordingSpeech();
    const source = createInnertubeTranscriptSource({ baseUrl: youtube.origin, clients, timeoutMs: 2_000, speech });
    await source.fetch(VIDEOS.captionsDisabled.id, { languages: ["en"], translate: true });
    let requests = 0;
    await source.fetch(VIDEOS.captionsDisabled.id, {
      languages: ["fr"],
      translate: true,
      rereading: true,
      observer: { request: () => requests++ },
    });
    expect(inputs).toHaveLength(2);
    expect(requests).toBe(1);
  });

  test("a video with captions never reaches speech", async () => {
    const { speech, inputs } = recordingSpeech();
    const source = createInnertubeTranscriptSource({ baseUrl: youtube.origin, clients, timeoutMs: 2_000, speech });
    const transcript = await source.fetch(VIDEOS.normal.id, { languages: ["en"], translate: true });
    expect(transcript.speech).toBeUndefined();
    expect(inputs).toHaveLength(0);
  });

  test("without speech, a caption-less video stays 422 transcript_unavailable", async () => {
    const source = createInnertubeTranscriptSource({ baseUrl: youtube.origin, clients, timeoutMs: 2_000 });
    await expect(source.fetch(VIDEOS.captionsDisabled.id, { languages: ["en"], translate: true })).rejects
      .toMatchObject({ code: "transcript_unavailable" });
  });
});
