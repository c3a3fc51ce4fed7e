/** @module Tests of audio-clients.ts: the audio clients' identities and the context they send. */
import { describe, expect, test } from "bun:test";
import { audioClients } from "../../../src/adapters/speech/audio-clients.ts";

describe("audioClients", () => {
  test("gives a known client the device fields and user agent yt-dlp sends with it", () => {
    const [visionos] = audioClients([{ name: "VISIONOS", version: "1.02" }]);
    expect(visionos).toMatchObject({
      name: "VISIONOS",
      version: "1.02",
      context: { deviceMake: "Apple", osName: "visionOS" },
    });
    expect(String(visionos!.context!.userAgent)).toContain("Safari");
  });

  test("sends an unknown client with its name and version only", () => {
    expect(audioClients([{ name: "TVHTML5", version: "7.2" }])).toEqual([{
      name: "TVHTML5",
      version: "7.2",
      context: undefined,
    }]);
  });
});
