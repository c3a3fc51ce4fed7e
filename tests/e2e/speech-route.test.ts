/** @module End-to-end test that the audio is fetched over the player call's address. */
// deno-lint-ignore-file no-explicit-any -- reads JSON whose shape is checked field by field where it is used
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SPEECH_VIDEOS, startFakeYoutubeAudio } from "../support/fake/youtube-audio.ts";
import { runToExit, startService, targetFromEnv } from "../support/service/process.ts";
import { KEY, type SpeechRig, startBoundProxy, startSpeechRig } from "../support/service/speech.ts";
import { ask } from "../support/service/youtube.ts";

const proxy = startBoundProxy("127.0.0.2");
let rig: SpeechRig;
beforeAll(async () => {
  await proxy.ready;
  rig = await startSpeechRig({ HTTPS_PROXY: proxy.url() });
});
afterAll(async () => {
  await rig?.close();
  await proxy.close();
});

describe(`speech-to-text: route and settings (${targetFromEnv()})`, () => {
  test("the audio is fetched over the player call's route: the address its URL is bound to", async () => {
    const outcome = await ask(rig.service, SPEECH_VIDEOS.webm);
    expect(outcome.status).toBe(200);
    const player = rig.youtube.seen.filter((s) => s.endpoint === "player");
    const audio = rig.youtube.seen.filter((s) => s.endpoint === "audio");
    // The primary client's call, then the audio client's (VISIONOS, whose audio needs no token): one address.
    expect(player.map((s) => [s.client, s.ip])).toEqual([["ANDROID", "127.0.0.2"], ["VISIONOS", "127.0.0.2"]]);
    expect(audio.length).toBeGreaterThan(0);
    expect(audio.every((s) => s.ip === "127.0.0.2" && s.status === 206)).toBe(true);
  });

  test("the fake really binds: the same audio URL asked from another address is a 403", async () => {
    // VISIONOS: a client whose audio needs no token, so that the address is the only thing that differs.
    const player = await fetch(`${rig.youtube.origin}/youtubei/v1/player`, {
      method: "POST",
      body: JSON.stringify({
        videoId: SPEECH_VIDEOS.webm,
        context: { client: { clientName: "VISIONOS", clientVersion: "1.02" } },
      }),
    }).then((r) => r.json());
    const own = new URL(player.streamingData.adaptiveFormats.find((f: any) => f.itag === 249).url);
    const other = new URL(own.href.replace("ip=127.0.0.1", "ip=127.0.0.2"));
    const asked = (url: URL) =>
      fetch(`${rig.youtube.origin}${url.pathname}${url.search}`, { headers: { range: "bytes=0-99" } });
    expect((await asked(own)).status).toBe(206);
    expect((await asked(other)).status).toBe(403);
  });

  test("off by default: a caption-less video stays a 422 and its audio is never touched", async () => {
    const youtube = startFakeYoutubeAudio();
    const service = await startService({
      API_KEYS: KEY,
      YOUTUBE_BASE_URL: youtube.origin,
      GROQ_API_KEY: "gsk_fake",
      GROQ_BASE_URL: rig.stt.baseUrl,
      GROQ_MODEL: "fake-model",
    });
    try {
      const outcome = await ask(service, SPEECH_VIDEOS.webm);
      expect(outcome.status).toBe(422);
      expect(outcome.code).toBe("transcript_unavailable");
      expect(outcome.message).toContain("has no captions");
      expect(youtube.count("audio")).toBe(0);
    } finally {
      await service.stop();
      await youtube.close();
    }
  });

  test("STT=groq without GROQ_API_KEY stops start-up with exit 2, naming both settings", async () => {
    const { code, output } = await runToExit({ API_KEYS: KEY, STT: "groq" });
    expect(code).toBe(2);
    expect(output).toContain("STT=groq needs LLM_API_KEY (or GROQ_API_KEY)");
  });
});
