/** @module Tests of YOUTUBE_CLIENTS and YOUTUBE_AUDIO_CLIENTS: table defaults, order kept, bad entries reported. */
import { describe, expect, test } from "bun:test";
import { loadConfig } from "../../../src/app/config/config.ts";
import { configProblems } from "../../support/config/problems.ts";

describe("YouTube client settings", () => {
  test("default to the client table's current versions, whatever STT says", () => {
    const { youtube, stt } = loadConfig({});
    expect(youtube.clients).toEqual([{ name: "ANDROID", version: "21.26.364" }, { name: "IOS", version: "21.26.4" }]);
    expect(youtube.audioClients).toEqual([{ name: "VISIONOS", version: "1.02" }]);
    expect(stt).toBeUndefined();
  });

  test("keep the configured order, and give the audio clients to speech-to-text too", () => {
    const config = loadConfig({
      YOUTUBE_CLIENTS: "IOS:21.30.2, ANDROID:21.30.100",
      YOUTUBE_AUDIO_CLIENTS: "ANDROID_VR:1.65.10,VISIONOS:1.03",
      STT: "groq",
      GROQ_API_KEY: "gsk_x",
    });
    expect(config.youtube.clients.map((c) => `${c.name}:${c.version}`)).toEqual(["IOS:21.30.2", "ANDROID:21.30.100"]);
    expect(config.stt!.audioClients).toEqual(config.youtube.audioClients);
    expect(config.youtube.audioClients.map((c) => c.name)).toEqual(["ANDROID_VR", "VISIONOS"]);
  });

  test.each(["android:21.26.364", "ANDROID", "ANDROID:latest", "ANDROID:21.26.364:x", ":21"])(
    "refuses the entry %j, naming the variable and an example of today's versions",
    (entry) => {
      const [problem] = configProblems({ YOUTUBE_CLIENTS: entry });
      expect(problem).toStartWith("YOUTUBE_CLIENTS must list NAME:VERSION pairs such as ANDROID:21.26.364,IOS:21.26.4");
      expect(problem).toContain(JSON.stringify(entry.trim()));
    },
  );

  test("reports bad entries of both variables at once", () => {
    const found = configProblems({ YOUTUBE_CLIENTS: "ANDROID:x", YOUTUBE_AUDIO_CLIENTS: "visionos" });
    expect(found.map((p) => p.split(" ")[0])).toEqual(["YOUTUBE_CLIENTS", "YOUTUBE_AUDIO_CLIENTS"]);
    expect(found[1]).toContain("such as VISIONOS:1.02");
  });
});
