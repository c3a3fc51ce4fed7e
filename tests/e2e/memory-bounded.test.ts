/** @module End-to-end test that per-request state is released: the heap after a full GC does not grow. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type FakeLlm, startFakeLlm } from "../support/fake/llm.ts";
import { type FakeYoutube, startFakeYoutube } from "../support/fake/youtube.ts";
import { VIDEOS } from "../support/fixtures.ts";
import { type MeasuredService, startMeasured } from "../support/heap/size.ts";
import { postChat, targetFromEnv } from "../support/service/process.ts";

const KEY = "e2e-memory-key-0123456789";
const CONCURRENCY = 12;
const TARGET = targetFromEnv();
/**
 * Requests measured, and the growth allowed, per target. Before the fix (per-request fetch state kept
 * for the whole 120 s request time limit) the same run grew: bun heap +3.3 MiB per 2,400 requests,
 * deno heap +18.8 MiB, the binary's RSS +45 MiB per 4,000; after it, bun +0.3 to +0.5, deno +1.3, the binary +6 to +8.
 */
// The binary takes no preload, so no GC can be forced: its RSS is measured once it has reached its plateau
// (see settledBytes).
const LIMITS = {
  bun: { warmUp: 800, requests: 4_800, mib: 2.5 },
  deno: { warmUp: 800, requests: 2_400, mib: 6 },
  binary: { warmUp: 8_000, requests: 8_000, mib: 16 },
}[TARGET];
const WARM_UP = LIMITS.warmUp;
const MEASURED = LIMITS.requests;
const MIB = 1024 * 1024;
let youtube: FakeYoutube;
let llm: FakeLlm;
let measured: MeasuredService;

beforeAll(async () => {
  youtube = startFakeYoutube();
  llm = startFakeLlm();
  llm.respondWith(() => ({ content: "The video reviews a small tablet and likes its screen [0:01]." }));
  // Caches small enough to be full after the warm-up: what is left to grow is per-request state.
  measured = await startMeasured(TARGET, {
    API_KEYS: KEY,
    YOUTUBE_BASE_URL: youtube.origin,
    GROQ_API_KEY: "gsk_fake",
    GROQ_BASE_URL: llm.baseUrl,
    GROQ_MODEL: "fake-model",
    LLM_MAX_RETRIES: "0",
    ANSWER_CACHE_MAX_ENTRIES: "100",
    TRANSCRIPT_CACHE_MAX_ENTRIES: "20",
  });
});
afterAll(async () => {
  await measured?.service.stop("SIGKILL");
  await youtube?.close();
  await llm?.close();
});

/**
 * The RSS a loaded machine may still be growing after the warm-up: the plateau is checked, not assumed.
 * More requests go in steps until one grows the RSS by under PLATEAU_MIB, at most PLATEAU_STEPS of them.
 * A leak never settles (before the fix, +45 MiB per 4,000 requests: +11 per step) and is then measured as it is.
 */
const PLATEAU_STEP = 1_000;
const PLATEAU_STEPS = 8;
const PLATEAU_MIB = 2;

let counter = 0;
/** `count` requests, CONCURRENCY at a time: half about distinct unknown videos (422), half distinct questions about one video (200). */
async function drive(count: number, statuses: Map<number, number>): Promise<void> {
  let sent = 0;
  const worker = async (): Promise<void> => {
    while (sent < count) {
      sent++;
      const n = counter++;
      const body = n % 2
        ? { url: `https://youtu.be/m${String(n).padStart(10, "0")}`, prompt: "what?" }
        : { url: `https://youtu.be/${VIDEOS.normal.id}`, prompt: `question ${n} about the screen?` };
      const response = await postChat(measured.service.url, body, { "x-api-key": KEY });
      await response.arrayBuffer();
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

/** The size measured once a step of requests no longer grows it (heap targets: at once, a full GC settles them). */
async function settledBytes(statuses: Map<number, number>): Promise<number> {
  let last = await measured.bytes();
  if (measured.measures === "heap") return last;
  for (let step = 0; step < PLATEAU_STEPS; step++) {
    await drive(PLATEAU_STEP, statuses);
    const now = await measured.bytes();
    if (now - last < PLATEAU_MIB * MIB) return Math.max(now, last);
    last = now;
  }
  return last;
}

describe(`memory under load (${TARGET})`, () => {
  test(
    "after the caches are full, thousands more requests (answers and refusals) leave the heap where it was",
    async () => {
      const statuses = new Map<number, number>();
      await drive(WARM_UP, statuses);
      const before = await settledBytes(statuses);
      const warmedUp = counter;
      await drive(MEASURED, statuses);
      const after = await measured.bytes();
      // Every count driven is even, so half the requests were answers and half refusals.
      expect(Object.fromEntries(statuses)).toEqual({ 200: counter / 2, 422: counter / 2 });
      expect(counter).toBeGreaterThanOrEqual(WARM_UP + MEASURED);
      const grownMiB = (after - before) / MIB;
      console.log(
        `memory-bounded (${measured.measures}): ${(before / MIB).toFixed(1)} → ${
          (after / MIB).toFixed(1)
        } MiB after ${MEASURED} requests (warmed up by ${warmedUp})`,
      );
      expect(grownMiB).toBeLessThan(LIMITS.mib);
    },
    60_000,
  );
});
