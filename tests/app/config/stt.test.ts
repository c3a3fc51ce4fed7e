/** @module Tests of the speech-to-text settings: defaults, `STT=groq` needing a key, every bad value reported. */
import { describe, expect, test } from "bun:test";
import { loadConfig } from "../../../src/app/config/config.ts";
import { configProblems } from "../../support/config/problems.ts";

describe("speech-to-text settings", () => {
  test("off by default: no speech-to-text at all, whatever else is set", () => {
    expect(loadConfig({}).stt).toBeUndefined();
    expect(loadConfig({ GROQ_API_KEY: "gsk_x", STT_MODEL: "whisper-large-v3" }).stt).toBeUndefined();
    expect(loadConfig({ STT: "off", GROQ_API_KEY: "gsk_x" }).stt).toBeUndefined();
  });

  test("STT=groq has the contract's defaults and VISIONOS as the audio client", () => {
    expect(loadConfig({ STT: "groq", GROQ_API_KEY: "gsk_x" }).stt).toEqual({
      provider: "groq",
      model: "whisper-large-v3-turbo",
      maxMinutes: 120,
      chunkBytes: 24_000_000,
      audioSecondsPerHour: 7_200,
      requestsPerMinute: 20,
      budgetWindowMs: 3_600_000,
      audioClients: [{ name: "VISIONOS", version: "1.02" }],
    });
  });

  test("reads every setting", () => {
    const stt = loadConfig({
      STT: "groq",
      GROQ_API_KEY: "gsk_x",
      STT_MODEL: "whisper-large-v3",
      STT_MAX_MINUTES: "30",
      STT_CHUNK_BYTES: "5000000",
      STT_AUDIO_SECONDS_PER_HOUR: "28800",
      STT_REQUESTS_PER_MINUTE: "300",
      STT_BUDGET_WINDOW_MS: "60000",
      YOUTUBE_AUDIO_CLIENTS: "VISIONOS:1.03, ANDROID_VR:1.65.10",
    }).stt;
    expect(stt).toMatchObject({
      model: "whisper-large-v3",
      maxMinutes: 30,
      chunkBytes: 5_000_000,
      audioSecondsPerHour: 28_800,
      requestsPerMinute: 300,
      budgetWindowMs: 60_000,
    });
    expect(stt!.audioClients).toEqual([{ name: "VISIONOS", version: "1.03" }, {
      name: "ANDROID_VR",
      version: "1.65.10",
    }]);
  });

  test("STT=groq without GROQ_API_KEY is refused: the offline engine has no speech-to-text", () => {
    expect(configProblems({ STT: "groq" })).toEqual([
      expect.stringContaining("STT=groq needs LLM_API_KEY (or GROQ_API_KEY)"),
    ]);
  });

  test("bad values are reported all at once, each naming its variable", () => {
    const found = configProblems({
      STT: "whisper",
      STT_MAX_MINUTES: "0",
      STT_CHUNK_BYTES: "30000000000",
      STT_AUDIO_SECONDS_PER_HOUR: "lots",
      YOUTUBE_AUDIO_CLIENTS: "visionos",
    });
    // YOUTUBE_AUDIO_CLIENTS is read with the other YouTube settings (the doctor asks it whatever STT says): first.
    expect(found.map((p) => p.split(" ")[0])).toEqual([
      "YOUTUBE_AUDIO_CLIENTS",
      "STT",
      "STT_MAX_MINUTES",
      "STT_CHUNK_BYTES",
      "STT_AUDIO_SECONDS_PER_HOUR",
    ]);
  });
});
