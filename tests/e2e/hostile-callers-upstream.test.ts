/** @module Callers that leave shared work, or leave before speech-to-text, get no upstream work done for free. */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ANSWERS, type FakeLlm, startFakeLlm } from "../support/fake/llm.ts";
import { type FakeYoutube, startFakeYoutube } from "../support/fake/youtube.ts";
import { SPEECH_VIDEOS } from "../support/fake/youtube-audio.ts";
import { connectHttp, mcpUrlOf } from "../support/mcp/http.ts";
import { KEY } from "../support/service/youtube.ts";
import { postChat, type RunningService, startService, targetFromEnv } from "../support/service/process.ts";
import { startSpeechRig } from "../support/service/speech.ts";
import { createKey, usageLine } from "../adapters/keys/keys-cli-process.ts";
import { hangUpAfterDelta } from "../support/sse.ts";

let youtube: FakeYoutube;
let llm: FakeLlm;
let dir: string;
let service: RunningService | undefined;

beforeAll(() => {
  youtube = startFakeYoutube({ anyVideo: true });
  llm = startFakeLlm();
  dir = mkdtempSync(join(tmpdir(), "vcs-upstream-e2e-"));
});
afterEach(async () => {
  await service?.stop("SIGKILL");
  service = undefined;
  llm.reset();
  youtube.reset();
});
afterAll(async () => {
  await youtube?.close();
  await llm?.close();
  rmSync(dir, { recursive: true, force: true });
});

let folders = 0;
/** A keys file (and usage file beside it) of the test's own. */
const storeEnv = (): Record<string, string> => ({ KEYS_FILE: join(dir, `store-${++folders}`, "api-keys.json") });
const start = (env: Record<string, string>) =>
  startService({
    YOUTUBE_BASE_URL: youtube.origin,
    GROQ_API_KEY: "gsk_fake",
    GROQ_BASE_URL: llm.baseUrl,
    GROQ_MODEL: "fake-model",
    RATE_LIMIT: "1000/min",
    ...env,
  });

interface Ledger {
  id: string;
  requests: number;
  minutes: number;
  sttSeconds?: number;
}

/** The key's line of `keys usage --json` once `ready` holds, else the last (zeros when it has none yet). */
const ledgerOf = async (env: Record<string, string>, id: string, ready?: (row: Ledger) => boolean) =>
  (await usageLine<Ledger>(env, id, ready)) ?? { id, requests: 0, minutes: 0 };

/** A well-formed video id of its own per call: the fake plays any as its 5-minute video, never cached before. */
let videos = 0;
const freshVideo = () => `upstream${String(++videos).padStart(3, "0")}`;
const watch = (videoId: string) => `https://www.youtube.com/watch?v=${videoId}`;

/** Three paragraphs streamed 4 characters every 50 ms: a caller reads the first deltas seconds before `done`. */
const slowStream = () =>
  llm.respondWith(() => ({
    content: [ANSWERS.en!, "The battery lasts about nine hours of light use [0:01].", "In short, a fine tablet [0:01]."]
      .join("\n\n"),
    chunkChars: 4,
    chunkDelayMs: 50,
  }));

describe(`upstream work only for admitted callers (${targetFromEnv()})`, () => {
  test("a finished meter refuses: on a 2req/day key, joined streams left in turn get the model asked only as charged", async () => {
    const env = storeEnv();
    const { key, id } = await createKey(env, "joins and leaves", undefined, ["--quota", "2req/day"]);
    service = await start(env);
    slowStream();
    // YouTube answers the captions slowly: the first caller leaves while the transcript is still being read.
    youtube.setFault("caption", { kind: "delay", ms: 400 });
    const outcomes: string[] = [];
    for (let round = 0; round < 5; round++) {
      const request = { url: watch(freshVideo()), prompt: "What is this video about?" };
      const sse = (signal: AbortSignal) =>
        postChat(service!.url, request, { "x-api-key": key, accept: "text/event-stream" }, signal);
      const [goneA, goneB] = [new AbortController(), new AbortController()];
      const a = await sse(goneA.signal);
      if (a.status !== 200) {
        outcomes.push(String(a.status));
        await a.body?.cancel();
        continue;
      }
      const b = await sse(goneB.signal);
      goneA.abort(); // A leaves before the video's length is known: refunded
      await a.body?.cancel().catch(() => {});
      outcomes.push(b.status === 200 ? await hangUpAfterDelta(b, goneB) : String(b.status));
    }
    // Every answer the model began is charged to the key (B, which read it, pays once A's request has ended), and the
    // key gets no more than its two requests' worth. B of the first round read deltas; once a request is charged, A
    // and B no longer both fit in the quota (B is refused while A holds its request).
    const answered = llm.calls.length;
    const row = await ledgerOf(env, id, (r) => r.requests >= answered);
    expect({ answered, charged: row.requests }).toEqual({ answered, charged: answered });
    expect(answered).toBeGreaterThanOrEqual(1);
    expect(answered).toBeLessThanOrEqual(2);
    expect(outcomes[0]).toBe("hung up mid-stream");
    expect(outcomes.filter((outcome) => outcome === "hung up mid-stream")).toHaveLength(answered);
  });

  test("a joiner under a quota of requests pays once it reads: it leaves another key's stream after a delta, charged", async () => {
    const env = storeEnv();
    const owner = await createKey(env, "owns the work");
    const joiner = await createKey(env, "reads and leaves", undefined, ["--quota", "1000req/month"]);
    service = await start(env);
    slowStream();
    const request = { url: watch(freshVideo()), prompt: "What is this video about?" };
    const sse = (key: string, signal?: AbortSignal) =>
      postChat(service!.url, request, { "x-api-key": key, accept: "text/event-stream" }, signal);
    const owned = await sse(owner.key);
    const gone = new AbortController();
    expect(await hangUpAfterDelta(await sse(joiner.key, gone.signal), gone)).toBe("hung up mid-stream");
    expect(await owned.text()).toContain("event: done");
    expect(llm.calls).toHaveLength(1);
    const row = await ledgerOf(env, joiner.id, (r) => r.requests >= 1);
    expect([row.requests, row.minutes]).toEqual([1, 5]);
  });

  test("speech-to-text runs for nobody: three caption-less videos left 200 ms in upload nothing and cost nothing", async () => {
    const env = storeEnv();
    const { key, id } = await createKey(env, "leaves before speech", undefined, ["--quota", "60min/day"]);
    const rig = await startSpeechRig(env);
    try {
      // Each player call takes 150 ms: the callers leave while YouTube is still answering, before any audio is asked.
      rig.youtube.delayPlayer(150);
      const videoIds = [SPEECH_VIDEOS.webm, SPEECH_VIDEOS.fresh, SPEECH_VIDEOS.m4a];
      await Promise.all(videoIds.map(async (videoId) => {
        const gone = new AbortController();
        const response = postChat(rig.service.url, { url: watch(videoId) }, { "x-api-key": key }, gone.signal);
        await Bun.sleep(200);
        gone.abort();
        await response.catch(() => {});
      }));
      // Long enough for work that ran on to reach the audio (a few player calls, then the download and uploads).
      await Bun.sleep(900);
      const audio = rig.youtube.seen.filter((s) => s.endpoint === "audio").length;
      expect({ audio, uploads: rig.stt.uploads.length }).toEqual({ audio: 0, uploads: 0 });
      // Nothing was charged, and the key's minutes are all there for the next caller, whose audio seconds count.
      const next = await postChat(rig.service.url, { url: watch(SPEECH_VIDEOS.spare) }, { "x-api-key": key });
      expect(next.status).toBe(200);
      expect(next.headers.get("quota-remaining")).toBe("59");
      const row = await ledgerOf(env, id, (r) => r.requests >= 1 && (r.sttSeconds ?? 0) > 0);
      expect([row.requests, row.minutes]).toEqual([1, 1]);
      expect(row.sttSeconds).toBeGreaterThan(0);
    } finally {
      await rig.close();
    }
  });

  test("a silent caption-less video is transcribed once, charged its minute and audio seconds, then refused from the cache", async () => {
    const env = storeEnv();
    const { key, id } = await createKey(env, "silent video", undefined, ["--quota", "60min/day"]);
    const rig = await startSpeechRig(env);
    try {
      // Whisper hears no speech in any piece.
      rig.stt.respondWith((upload) => ({
        status: 200,
        body: { task: "transcribe", language: "English", duration: upload.durationSeconds, text: "", segments: [] },
      }));
      const statuses: number[] = [];
      for (let round = 0; round < 3; round++) {
        const response = await postChat(rig.service.url, { url: watch(SPEECH_VIDEOS.fresh) }, { "x-api-key": key });
        statuses.push(response.status);
        const { error } = await response.json();
        expect(error.code).toBe("transcript_unavailable");
        expect(error.message).toContain("no speech was heard");
      }
      expect(statuses).toEqual([422, 422, 422]);
      const uploads = rig.stt.uploads.length;
      expect(uploads).toBeGreaterThanOrEqual(3);
      // The first request transcribed it and is charged the minute it held; the others read the cached outcome.
      const row = await ledgerOf(env, id, (r) => r.minutes >= 1 && (r.sttSeconds ?? 0) > 0);
      expect([row.requests, row.minutes]).toEqual([1, 1]);
      expect(row.sttSeconds).toBeGreaterThan(50);
      // In another language too: a speech outcome is the same whatever the language asked.
      const other = await postChat(rig.service.url, { url: watch(SPEECH_VIDEOS.fresh), language: "es" }, {
        "x-api-key": key,
      });
      expect(other.status).toBe(422);
      expect(rig.stt.uploads.length).toBe(uploads);
      expect(llm.calls.length + rig.llm.calls.length).toBe(0);
    } finally {
      await rig.close();
    }
  });

  test("get_transcript cancelled while YouTube answers: no audio downloaded nor transcribed, nothing charged", async () => {
    const env = storeEnv();
    const { key, id } = await createKey(env, "cancels pages", undefined, ["--quota", "60min/day"]);
    const rig = await startSpeechRig({ ...env, MCP_PORT: "0" });
    const { client } = await connectHttp(await mcpUrlOf(rig.service), { authorization: `Bearer ${key}` });
    try {
      rig.youtube.delayPlayer(150);
      const results = await Promise.all([SPEECH_VIDEOS.webm, SPEECH_VIDEOS.m4a].map((videoId) => {
        const cancel = new AbortController();
        setTimeout(() => cancel.abort(), 200);
        const call = client.callTool({ name: "get_transcript", arguments: { url: watch(videoId) } }, {
          signal: cancel.signal,
        });
        return call.then(() => "answered", () => "cancelled");
      }));
      expect(results).toEqual(["cancelled", "cancelled"]);
      await Bun.sleep(900);
      const audio = rig.youtube.seen.filter((s) => s.endpoint === "audio").length;
      expect({ audio, uploads: rig.stt.uploads.length }).toEqual({ audio: 0, uploads: 0 });
      const row = await ledgerOf(env, id);
      expect([row.requests, row.minutes, row.sttSeconds ?? 0]).toEqual([0, 0, 0]);
    } finally {
      await client.close();
      await rig.close();
    }
  });

  test("fetches run for nobody: sixty videos asked and left 50 ms in start no YouTube request once every caller left", async () => {
    // Each YouTube request takes 300 ms: a fetch that ran on would start its next request after its callers left.
    const slow = startFakeYoutube({ anyVideo: true, latencyMs: 300 });
    const places = { MAX_IN_FLIGHT: "200", MAX_IN_FLIGHT_PER_KEY: "200" };
    service = await start({ API_KEYS: KEY, ...places, YOUTUBE_BASE_URL: slow.origin });
    try {
      await Promise.all(Array.from({ length: 60 }, async () => {
        const gone = new AbortController();
        const response = postChat(service!.url, { url: watch(freshVideo()) }, { "x-api-key": KEY }, gone.signal);
        await Bun.sleep(50);
        gone.abort();
        await response.catch(() => {});
      }));
      // The service has seen every caller go (a moment after the last hang-up); then no fetch may start a request.
      await Bun.sleep(150);
      const atLeave = slow.seen.length;
      await Bun.sleep(600);
      expect({ startedAfterEveryCallerLeft: slow.seen.length - atLeave }).toEqual({ startedAfterEveryCallerLeft: 0 });
    } finally {
      await slow.close();
    }
  });
});
