/** @module End-to-end test that the transcript cache counts each transcript's lines and scores in its bound. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type FakeLlm, startFakeLlm } from "../support/fake/llm.ts";
import { type FakeYoutube, startFakeYoutube } from "../support/fake/youtube.ts";
import { captionXml, generateCues } from "../support/long-transcript.ts";
import { type MeasuredService, startMeasured } from "../support/heap/size.ts";
import { rssMiB } from "../support/rss.ts";
import { postChat, targetFromEnv } from "../support/service/process.ts";

const KEY = "e2e-memory-transcripts-key-0123456789";
const TARGET = targetFromEnv();
/** The caches' bounds, and how many transcripts are asked about: small by default, the defaults' figures through env. */
const TRANSCRIPT_MB = Number(process.env.MEMORY_TRANSCRIPT_MB ?? 16);
const ANSWER_MB = Number(process.env.MEMORY_ANSWER_MB ?? 4);
/** Distinct transcripts of about 390 kB of captions each: several times what the caches may keep. */
const WARM_UP = Number(process.env.MEMORY_WARM_UP ?? 40);
const MEASURED = Number(process.env.MEMORY_MEASURED ?? 80);
const CONCURRENCY = 4;
const MIB = 1024 * 1024;
let youtube: FakeYoutube;
let llm: FakeLlm;
let measured: MeasuredService;

beforeAll(async () => {
  youtube = startFakeYoutube({ anyVideo: true });
  llm = startFakeLlm();
  llm.respondWith(() => ({ content: "The talk goes over many small points in turn [0:01]." }));
  measured = await startMeasured(TARGET, {
    API_KEYS: KEY,
    YOUTUBE_BASE_URL: youtube.origin,
    GROQ_API_KEY: "gsk_fake",
    GROQ_BASE_URL: llm.baseUrl,
    GROQ_MODEL: "fake-model",
    LLM_MAX_RETRIES: "0",
    LLM_TOKENS_PER_MINUTE: "100000000",
    LLM_REQUESTS_PER_MINUTE: "100000",
    TRANSCRIPT_CACHE_MB: String(TRANSCRIPT_MB),
    ANSWER_CACHE_MB: String(ANSWER_MB),
  });
  const xml = captionXml(generateCues(5.5 * 3600));
  for (let i = 0; i < WARM_UP + MEASURED; i++) {
    const id = videoId(i);
    youtube.setCaption(id, xml.replaceAll("</text>", ` ${id}</text>`));
  }
});
afterAll(async () => {
  await measured?.service.stop("SIGKILL");
  await youtube?.close();
  await llm?.close();
});

const videoId = (i: number) => `tx${String(i).padStart(9, "0")}`;

/** Asks about videos `from` to `to` (excluded), CONCURRENCY at a time; @returns the statuses seen */
async function drive(from: number, to: number): Promise<Record<number, number>> {
  const statuses: Record<number, number> = {};
  let next = from;
  const worker = async (): Promise<void> => {
    while (next < to) {
      const id = videoId(next++);
      const response = await postChat(measured.service.url, {
        url: `https://www.youtube.com/watch?v=${id}`,
        prompt: "summary",
      }, { "x-api-key": KEY });
      await response.arrayBuffer();
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return statuses;
}

describe(`memory over many distinct large transcripts (${TARGET})`, () => {
  test(
    "the transcript cache counts each transcript's lines and scores: the memory grows by about the caches' bounds",
    async () => {
      const pid = measured.service.process.pid;
      const startRss = rssMiB(pid);
      const startBytes = await measured.bytes();
      expect(await drive(0, WARM_UP)).toEqual({ 200: WARM_UP });
      const warmBytes = await measured.bytes();
      expect(await drive(WARM_UP, WARM_UP + MEASURED)).toEqual({ 200: MEASURED });
      const endBytes = await measured.bytes();
      const endRss = rssMiB(pid);
      const bound = TRANSCRIPT_MB + ANSWER_MB;
      console.log(
        `memory-transcript-cache (${measured.measures}): ${(startBytes / MIB).toFixed(1)} → ${
          (warmBytes / MIB).toFixed(1)
        } after ${WARM_UP} → ${(endBytes / MIB).toFixed(1)} MiB after ${WARM_UP + MEASURED} distinct transcripts; RSS ${
          startRss.toFixed(0)
        } → ${endRss.toFixed(0)} MiB; caches' bounds ${bound} MB`,
      );
      // The heap after a full GC holds the caches, counted on the high side (two bytes a character): under their bounds.
      // Before the lines and scores were counted: +24.4 MiB at these bounds (+89 MiB at 64 + 16 MB, 240 transcripts);
      // counted, +12.6 (+45.8). The binary's RSS also holds the runtime's own growth: half as much again, and 32 MiB.
      const allowedMiB = measured.measures === "heap" ? bound * 1e6 / MIB : 1.5 * bound + 32;
      expect((endBytes - startBytes) / MIB).toBeLessThan(allowedMiB);
      // Full caches after the warm-up: what the measured requests add is per-request state, not kept transcripts.
      expect((endBytes - warmBytes) / MIB).toBeLessThan(0.25 * bound);
    },
    300_000,
  );
});
