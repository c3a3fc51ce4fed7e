/** @module Tests of audio-pieces.ts on real WebM and M4A fixtures: pieces under the cap that each decode (ffprobe). */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AudioFormatError, cutAudio } from "../../../src/adapters/speech/audio-pieces.ts";
import { AUDIO } from "../../support/fake/youtube-audio.ts";
import { probe } from "../../support/fake/stt.ts";

const dir = mkdtempSync(join(tmpdir(), "audio-pieces-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

describe("cutAudio", () => {
  for (
    const [name, bytes, extension] of [["WebM/Opus", AUDIO.webm, "webm"], [
      "fragmented MP4/AAC",
      AUDIO.fragmentedM4a,
      "m4a",
    ], ["plain MP4/AAC", AUDIO.m4a, "m4a"]] as const
  ) {
    test(`cuts ${name} into pieces under the cap that each decode and whose lengths add up`, async () => {
      const cap = Math.ceil(bytes.byteLength / 3);
      const { pieces, durationSeconds } = await cutAudio(bytes, cap);
      expect(pieces.length).toBeGreaterThanOrEqual(3);
      expect(durationSeconds).toBeCloseTo(58.6, 0);
      let expectedStart = 0;
      let decoded = 0;
      for (const piece of pieces) {
        expect(piece.extension).toBe(extension);
        expect(piece.bytes.byteLength).toBeLessThanOrEqual(cap);
        expect(piece.startSeconds).toBeCloseTo(expectedStart, 2);
        const seconds = probe(dir, files++, extension, piece.bytes);
        expect(seconds).toBeDefined();
        expect(seconds!).toBeCloseTo(piece.durationSeconds, 0);
        expectedStart += piece.durationSeconds;
        decoded += seconds!;
      }
      expect(Math.abs(decoded - durationSeconds)).toBeLessThan(0.5);
    });
  }

  test("sends a file under the cap as it came, in one piece, with its length", async () => {
    const { pieces, durationSeconds } = await cutAudio(AUDIO.webm, 1_000_000);
    expect(pieces).toHaveLength(1);
    expect(pieces[0]!.bytes).toBe(AUDIO.webm);
    expect(pieces[0]!.durationSeconds).toBe(durationSeconds);
    expect(probe(dir, files++, "webm", pieces[0]!.bytes)).toBeCloseTo(58.6, 0);
  });

  test("refuses bytes that are no audio with AudioFormatError", async () => {
    await expect(cutAudio(new TextEncoder().encode("<html>not audio</html>"), 100_000)).rejects.toBeInstanceOf(
      AudioFormatError,
    );
    await expect(cutAudio(AUDIO.webm.slice(0, 200), 100_000)).rejects.toBeInstanceOf(AudioFormatError);
  });
});
