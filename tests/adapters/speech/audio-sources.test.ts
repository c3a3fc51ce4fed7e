/** @module Tests of audio-sources.ts: the audio clients' URLs first and one at a time, the primary's last. */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { audioSources, downloadFirst } from "../../../src/adapters/speech/audio-sources.ts";
import { createClientHealth } from "../../../src/adapters/youtube/client-health.ts";
import { innertubeClient, innertubeClients } from "../../../src/adapters/youtube/innertube-clients.ts";
import { askPlayer } from "../../../src/adapters/youtube/player-request.ts";
import { createYoutubeTransport } from "../../../src/adapters/youtube/transport.ts";
import { SPEECH_VIDEOS, startFakeYoutubeAudio } from "../../support/fake/youtube-audio.ts";

const youtube = startFakeYoutubeAudio();
const transport = createYoutubeTransport({ baseUrl: youtube.origin, timeoutMs: 5_000 });
afterEach(() => youtube.reset());
afterAll(() => youtube.close());

const android = innertubeClient("ANDROID", "21.26.364");
const videoId = SPEECH_VIDEOS.webm;
const primary = () => askPlayer(transport, videoId, { client: android });
const players = () => youtube.seen.filter((s) => s.endpoint === "player").map((s) => s.client);

describe("audioSources()", () => {
  test("yields each audio client's lowest direct audio, asked only when the next is wanted, then the primary's", async () => {
    const info = await primary();
    youtube.reset();
    const audioClients = innertubeClients([{ name: "VISIONOS", version: "1.02" }, {
      name: "ANDROID_VR",
      version: "1.65.10",
    }]);
    const sources = audioSources({ transport, videoId, info, client: android, audioClients });
    const first = await sources.next();
    expect(first.value).toMatchObject({ client: { name: "VISIONOS" }, format: { itag: 249 } });
    expect(new URL(first.value!.format.url!).searchParams.get("c")).toBe("VISIONOS");
    expect(players()).toEqual(["VISIONOS"]);
    const second = await sources.next();
    expect(second.value!.client!.name).toBe("ANDROID_VR");
    const last = await sources.next();
    expect(last.value).toMatchObject({ client: { name: "ANDROID" } });
    expect((await sources.next()).done).toBe(true);
    expect(players()).toEqual(["VISIONOS", "ANDROID_VR"]);
  });

  test("a retired audio client is passed for the next source, and noted as retired", async () => {
    const info = await primary();
    youtube.reset();
    const retired = innertubeClient("IOS", "20.10.4");
    const health = createClientHealth([retired]);
    const sources = audioSources({ transport, videoId, info, client: android, audioClients: [retired], health });
    expect((await sources.next()).value!.client!.name).toBe("ANDROID");
    expect(health.snapshot()).toEqual([{ client: "IOS", version: "20.10.4", up: false }]);
  });

  test("downloadFirst() moves past a URL refused with 403 to the next source", async () => {
    const info = await primary();
    youtube.reset();
    // ANDROID as an audio client first: its URL needs a token (403); VISIONOS's is served.
    const audioClients = innertubeClients([{ name: "ANDROID", version: "21.26.364" }, {
      name: "VISIONOS",
      version: "1.02",
    }]);
    const rest = audioSources({ transport, videoId, info, client: android, audioClients });
    const first = (await rest.next()).value!;
    const { bytes, format } = await downloadFirst({ first, rest }, { transport, videoId, maxBytes: 1_000_000 });
    expect(bytes.byteLength).toBeGreaterThan(1000);
    expect(format.itag).toBe(249);
    const audio = youtube.seen.filter((s) => s.endpoint === "audio").map((s) => `${s.client}:${s.status}`);
    expect(audio[0]).toBe("ANDROID:403");
    expect(audio.slice(1).every((entry) => entry === "VISIONOS:206")).toBe(true);
  });

  test("a caption-less video no client offers audio for yields nothing", async () => {
    const info = await askPlayer(transport, SPEECH_VIDEOS.noAudio, { client: android });
    const sources = audioSources({
      transport,
      videoId: SPEECH_VIDEOS.noAudio,
      info,
      audioClients: innertubeClients([{ name: "VISIONOS", version: "1.02" }]),
    });
    expect((await sources.next()).done).toBe(true);
  });
});
