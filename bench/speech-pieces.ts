/** @module Benchmark of cutting an hour of caption-less audio into upload pieces with Mediabunny. */
/**
 * What cutting a caption-less video's audio into upload pieces costs (Mediabunny, no decoding):
 * one hour of WebM/Opus (the committed fixture looped by ffmpeg with `-c copy`, so the
 * packets are real 20 ms Opus frames, 180,000 of them), cut with the default STT_CHUNK_BYTES
 * (one piece) and with 1 MB pieces. Baseline, measured in the same run: reading the
 * packets alone (what any re-muxing must do). Needs ffmpeg.
 *
 *   bun bench/speech-pieces.ts
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ALL_FORMATS, BufferSource, EncodedPacketSink, Input } from "mediabunny";
import { cutAudio } from "../src/adapters/speech/audio-pieces.ts";

const dir = mkdtempSync(join(tmpdir(), "bench-speech-"));
const file = join(dir, "hour.webm");
const made = Bun.spawnSync([
  "ffmpeg",
  "-v",
  "error",
  "-stream_loop",
  "61",
  "-i",
  "tests/fixtures/audio/speech.webm",
  "-t",
  "3600",
  "-c",
  "copy",
  file,
]);
if (made.exitCode !== 0) throw new Error(`ffmpeg failed: ${made.stderr}`);
const bytes = new Uint8Array(readFileSync(file));
rmSync(dir, { recursive: true, force: true });

async function readPackets(): Promise<number> {
  const input = new Input({ source: new BufferSource(bytes), formats: ALL_FORMATS });
  let count = 0;
  for await (const _ of new EncodedPacketSink((await input.getPrimaryAudioTrack())!).packets()) count++;
  input.dispose();
  return count;
}

async function median(runs: number, work: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)]!;
}

const packets = await readPackets();
const baseline = await median(3, readPackets);
const whole = await median(3, () => cutAudio(bytes, 24_000_000));
const small = await median(3, () => cutAudio(bytes, 1_000_000));
const pieces = (await cutAudio(bytes, 1_000_000)).pieces.length;
console.log(`one hour of WebM/Opus: ${(bytes.byteLength / 1e6).toFixed(1)} MB, ${packets} packets`);
console.log(`read packets only (baseline), median of 3: ${baseline.toFixed(0)} ms`);
console.log(
  `cut, STT_CHUNK_BYTES 24,000,000 (1 piece), median of 3: ${whole.toFixed(0)} ms = ${
    (whole / baseline).toFixed(2)
  }x baseline`,
);
console.log(
  `cut, 1,000,000-byte pieces (${pieces} pieces), median of 3: ${small.toFixed(0)} ms = ${
    (small / baseline).toFixed(2)
  }x baseline`,
);
console.log(
  `share of an hour's transcription budget (3,600 s of audio): ${
    ((small / 1000 / 3600) * 100).toFixed(3)
  } % of the audio's length`,
);
