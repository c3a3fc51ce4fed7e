/** @module Hostile callers against a key's quota: after each, the ledger and the provider's recorded calls agree. */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ANSWERS, type FakeLlm, startFakeLlm } from "../support/fake/llm.ts";
import { type FakeYoutube, startFakeYoutube } from "../support/fake/youtube.ts";
import { SPEECH_VIDEOS } from "../support/fake/youtube-audio.ts";
import { watchUrl } from "../support/fixtures.ts";
import { connectHttp, mcpUrlOf, textOf } from "../support/mcp/http.ts";
import { postChat, type RunningService, startService, targetFromEnv } from "../support/service/process.ts";
import { startSpeechRig } from "../support/service/speech.ts";
import { hangUpAfterDelta, readEvents } from "../support/sse.ts";
import { createKey, usageLine } from "../adapters/keys/keys-cli-process.ts";

/** The fixture's "normal" video is 5 minutes long: each answer about it costs 5 video minutes. */
const VIDEO_MINUTES = 5;
let youtube: FakeYoutube;
let llm: FakeLlm;
let dir: string;
let service: RunningService | undefined;

beforeAll(() => {
  youtube = startFakeYoutube();
  llm = startFakeLlm();
  dir = mkdtempSync(join(tmpdir(), "vcs-hostile-e2e-"));
});
afterEach(async () => {
  await service?.stop("SIGKILL");
  service = undefined;
  llm.respondWith(undefined);
  youtube.reset();
});
afterAll(async () => {
  await youtube?.close();
  await llm?.close();
  rmSync(dir, { recursive: true, force: true });
});

let folders = 0;
/** A keys file (and usage file beside it) of the test's own. */
function storeEnv(): Record<string, string> {
  return { KEYS_FILE: join(dir, `store-${++folders}`, "api-keys.json") };
}
const start = (env: Record<string, string>) =>
  startService({
    YOUTUBE_BASE_URL: youtube.origin,
    GROQ_API_KEY: "gsk_fake",
    GROQ_BASE_URL: llm.baseUrl,
    GROQ_MODEL: "fake-model",
    RATE_LIMIT: "1000/min",
    MCP_PORT: "0",
    ...env,
  });
const body = (prompt: string) => ({ url: watchUrl("normal"), prompt });

interface Ledger {
  id: string;
  requests: number;
  minutes: number;
  inputTokens: number;
  sttSeconds?: number;
  refused: Record<string, number>;
}

/** The key's line of `keys usage --json` (the month), once `ready` holds. */
const ledgerOf = async (env: Record<string, string>, id: string, ready?: (row: Ledger) => boolean) =>
  (await usageLine<Ledger>(env, id, ready))!;

/** The provider's calls that carry `text` (each request asks its own question). */
const callsFor = (text: string) => llm.calls.filter((call) => call.text.includes(text));

/** Waits until the provider is asked about `text`, or `settled` ends first (the request was refused). */
async function untilAsked(text: string, settled: Promise<unknown>): Promise<boolean> {
  let done = false;
  void settled.finally(() => (done = true)).catch(() => {});
  for (const until = Date.now() + 10_000; Date.now() < until && !done;) {
    if (callsFor(text).length > 0) return true;
    await Bun.sleep(10);
  }
  return callsFor(text).length > 0;
}

/** A slow answer: the model is at work long enough for a caller to hang up on it. */
const slowModel = () => llm.respondWith(() => ({ content: ANSWERS.en!, delayMs: 1_500 }));
/** An answer of three paragraphs: the first is streamed once the language check has judged it, well before the end. */
const LONG_ANSWER = [
  ANSWERS.en!,
  "The battery lasts about nine hours of light use, which the reviewer finds enough for a day [0:01].",
  "In short, a good small tablet for the price [0:01].",
].join("\n\n");
/** A slowly streamed answer: 4 characters every 50 ms (seconds in all, so a caller leaves long before its end). */
const slowStream = () => llm.respondWith(() => ({ content: LONG_ANSWER, chunkChars: 4, chunkDelayMs: 50 }));

describe(`hostile callers against a key's quota (${targetFromEnv()})`, () => {
  test("hanging up while the model works is charged: a 10min/day key gets the provider asked twice, then 429", async () => {
    const env = storeEnv();
    const { key, id } = await createKey(env, "hangs up", undefined, ["--quota", "10min/day"]);
    service = await start(env);
    slowModel();
    const statuses: (number | "hung up")[] = [];
    for (let i = 0; i < 5; i++) {
      const gone = new AbortController();
      const response = postChat(service.url, body(`hang-up question ${i}`), { "x-api-key": key }, gone.signal);
      const asked = await untilAsked(`hang-up question ${i}`, response);
      if (asked) gone.abort();
      statuses.push(await response.then((r) => r.status, () => "hung up" as const));
    }
    const asked = [0, 1, 2, 3, 4].filter((i) => callsFor(`hang-up question ${i}`).length > 0).length;
    expect(asked).toBe(2);
    expect(statuses.slice(2)).toEqual([429, 429, 429]);
    const row = await ledgerOf(env, id, (r) => r.minutes >= asked * VIDEO_MINUTES);
    expect([row.requests, row.minutes]).toEqual([asked, asked * VIDEO_MINUTES]);
  });

  test("under a quota of requests, hanging up once the model works is charged the request: 2req/day, the provider asked twice", async () => {
    const env = storeEnv();
    const { key, id } = await createKey(env, "counts requests", undefined, ["--quota", "2req/day"]);
    service = await start(env);
    slowModel();
    for (let i = 0; i < 3; i++) {
      const gone = new AbortController();
      const response = postChat(service.url, body(`counted question ${i}`), { "x-api-key": key }, gone.signal);
      if (await untilAsked(`counted question ${i}`, response)) gone.abort();
      await response.catch(() => {});
    }
    const asked = [0, 1, 2].filter((i) => callsFor(`counted question ${i}`).length > 0).length;
    expect(asked).toBe(2);
    const row = await ledgerOf(env, id, (r) => r.requests >= 2);
    expect(row.requests).toBe(2);
  });

  test("hanging up mid-stream is charged too: the provider streams for at most the quota's answers", async () => {
    const env = storeEnv();
    const { key, id } = await createKey(env, "drops streams", undefined, ["--quota", "10min/day"]);
    service = await start(env);
    slowStream();
    const outcomes: string[] = [];
    for (let i = 0; i < 4; i++) {
      const gone = new AbortController();
      const response = await postChat(service.url, body(`stream question ${i}`), {
        "x-api-key": key,
        accept: "text/event-stream",
      }, gone.signal);
      if (response.status !== 200) {
        outcomes.push(String(response.status));
        await response.body?.cancel();
        continue;
      }
      outcomes.push(await hangUpAfterDelta(response, gone));
    }
    expect(outcomes).toEqual(["hung up mid-stream", "hung up mid-stream", "429", "429"]);
    const streamed = [0, 1, 2, 3].filter((i) => callsFor(`stream question ${i}`).length > 0).length;
    expect(streamed).toBe(2);
    const row = await ledgerOf(env, id, (r) => r.minutes >= 10);
    expect([row.requests, row.minutes]).toEqual([2, 10]);
  });

  test("hanging up before the transcript arrives costs nothing and asks the provider nothing", async () => {
    const env = storeEnv();
    const { key, id } = await createKey(env, "leaves early", undefined, ["--quota", "10min/day"]);
    service = await start(env);
    youtube.setFault("caption", { kind: "delay", ms: 1_500 });
    const gone = new AbortController();
    const response = postChat(service.url, body("early question"), { "x-api-key": key }, gone.signal);
    await Bun.sleep(300);
    gone.abort();
    await response.catch(() => {});
    youtube.setFault("caption", undefined);
    // The next caller is charged as usual: the early hang-up took nothing from the quota.
    const next = await postChat(service.url, body("the next question"), { "x-api-key": key });
    expect(next.status).toBe(200);
    expect(next.headers.get("quota-remaining")).toBe("5");
    expect(callsFor("early question")).toHaveLength(0);
    const row = await ledgerOf(env, id, (r) => r.requests >= 1);
    expect([row.requests, row.minutes]).toEqual([1, 5]);
  });

  test("a joiner reads nothing before it pays: a 1min/day key joining another key's 5-minute answer gets no delta", async () => {
    const env = storeEnv();
    const owner = await createKey(env, "pays");
    const joiner = await createKey(env, "joins", undefined, ["--quota", "1min/day"]);
    service = await start(env);
    slowStream();
    const stream = (key: string) =>
      postChat(service!.url, body("shared question"), { "x-api-key": key, accept: "text/event-stream" });
    const first = await stream(owner.key);
    const reading = readEvents(first);
    await untilAsked("shared question", reading);
    const joined = await stream(joiner.key);
    const joinerEvents = joined.status === 200 ? await readEvents(joined) : [];
    const refusal = joined.status === 200 ? joinerEvents.at(-1)?.data.error?.code : (await joined.json()).error.code;
    expect(refusal).toBe("quota_exceeded");
    expect(joinerEvents.filter((e) => e.event === "delta")).toEqual([]);
    expect((await reading).at(-1)?.event).toBe("done");
    expect(callsFor("shared question")).toHaveLength(1);
    const row = await ledgerOf(env, joiner.id, (r) => (r.refused.quota_exceeded ?? 0) >= 1);
    expect([row.requests, row.minutes, row.refused]).toEqual([0, 0, { quota_exceeded: 1 }]);
  });

  test("join and leave: a joiner that read part of another key's answer pays its minutes, never the owner's tokens", async () => {
    const env = storeEnv();
    const owner = await createKey(env, "owns", undefined, ["--quota", "10min/day"]);
    const joiner = await createKey(env, "joins and leaves", undefined, ["--quota", "10min/day"]);
    service = await start(env);
    slowStream();
    const sse = (key: string, signal?: AbortSignal) =>
      postChat(service!.url, body("joined question"), { "x-api-key": key, accept: "text/event-stream" }, signal);
    const reading = readEvents(await sse(owner.key));
    await untilAsked("joined question", reading);
    const gone = new AbortController();
    expect(await hangUpAfterDelta(await sse(joiner.key, gone.signal), gone)).toBe("hung up mid-stream");
    expect((await reading).at(-1)?.event).toBe("done");
    expect(callsFor("joined question")).toHaveLength(1);
    const [paid, left] = [
      await ledgerOf(env, owner.id, (r) => r.requests >= 1 && r.inputTokens > 0),
      await ledgerOf(env, joiner.id, (r) => r.requests >= 1),
    ];
    expect([paid.requests, paid.minutes]).toEqual([1, VIDEO_MINUTES]);
    expect(paid.inputTokens).toBeGreaterThan(0);
    expect([left.requests, left.minutes, left.inputTokens]).toEqual([1, VIDEO_MINUTES, 0]);
  });

  test("notifications/cancelled once the model works is charged: the provider is asked for the quota's worth only", async () => {
    const env = storeEnv();
    const { key, id } = await createKey(env, "cancels", undefined, ["--quota", "10min/day"]);
    service = await start(env);
    slowModel();
    const { client } = await connectHttp(await mcpUrlOf(service), { authorization: `Bearer ${key}` });
    try {
      const results: string[] = [];
      for (let i = 0; i < 4; i++) {
        const cancel = new AbortController();
        const call = client.callTool(
          { name: "chat_about_video", arguments: body(`cancelled question ${i}`) },
          { signal: cancel.signal },
        );
        const asked = await untilAsked(`cancelled question ${i}`, call);
        if (asked) cancel.abort();
        results.push(await call.then((r) => textOf(r).split(":")[0]!, () => "cancelled"));
      }
      expect(results).toEqual(["cancelled", "cancelled", "quota_exceeded", "quota_exceeded"]);
      const asked = [0, 1, 2, 3].filter((i) => callsFor(`cancelled question ${i}`).length > 0).length;
      expect(asked).toBe(2);
      const row = await ledgerOf(env, id, (r) => r.minutes >= 10);
      expect([row.requests, row.minutes]).toEqual([2, 10]);
    } finally {
      await client.close();
    }
  });

  test("get_transcript holds its page's minutes first: 8 concurrent calls with 1 minute left, one page served", async () => {
    const env = storeEnv();
    const { key, id } = await createKey(env, "pages", undefined, ["--quota", "1min/day"]);
    service = await start(env);
    const { client } = await connectHttp(await mcpUrlOf(service), { authorization: `Bearer ${key}` });
    try {
      const calls = Array.from(
        { length: 8 },
        () => client.callTool({ name: "get_transcript", arguments: { url: watchUrl("normal") } }),
      );
      const results = await Promise.all(calls);
      const served = results.filter((r) => !r.isError);
      expect(served).toHaveLength(1);
      expect(results.filter((r) => r.isError).map((r) => textOf(r).split(":")[0])).toEqual(
        Array(7).fill("quota_exceeded"),
      );
      const row = await ledgerOf(env, id, (r) => r.requests >= 1);
      expect([row.requests, row.minutes]).toEqual([1, 1]);
    } finally {
      await client.close();
    }
  });

  test("a flood from one key leaves another key served; the flooding key got the provider asked for its quota only", async () => {
    const env = storeEnv();
    const flooder = await createKey(env, "floods", undefined, ["--quota", "10min/day"]);
    const other = await createKey(env, "asks once", undefined, ["--quota", "10min/day"]);
    service = await start(env);
    llm.respondWith(() => ({ content: ANSWERS.en!, delayMs: 300 }));
    const flood = Array.from(
      { length: 8 },
      (_, i) => postChat(service!.url, body(`flood question ${i}`), { "x-api-key": flooder.key }),
    );
    const answer = await postChat(service.url, body("a fair question"), { "x-api-key": other.key });
    expect(answer.status).toBe(200);
    const statuses = (await Promise.all(flood)).map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(2);
    const asked = Array.from({ length: 8 }, (_, i) => callsFor(`flood question ${i}`).length).reduce((a, b) => a + b);
    expect(asked).toBe(2);
    const row = await ledgerOf(env, flooder.id, (r) => r.requests >= 2);
    expect([row.requests, row.minutes]).toEqual([2, 10]);
  });
});

describe(`speech-to-text under a key's quota (${targetFromEnv()})`, () => {
  test("no audio is fetched nor transcribed before the video's minutes are held: two videos at once on a 1min/day key, one transcribed", async () => {
    const env = storeEnv();
    const { key, id } = await createKey(env, "captionless", undefined, ["--quota", "1min/day"]);
    const rig = await startSpeechRig(env);
    try {
      const ask = (video: string) =>
        postChat(rig.service.url, { url: `https://www.youtube.com/watch?v=${video}` }, { "x-api-key": key });
      const responses = await Promise.all([ask(SPEECH_VIDEOS.webm), ask(SPEECH_VIDEOS.m4a)]);
      expect(responses.map((r) => r.status).sort()).toEqual([200, 429]);
      // One video's audio was fetched and transcribed (its first format's download), the other's never.
      const fetchedVideos = new Set(rig.youtube.seen.filter((s) => s.endpoint === "audio").map((s) => s.videoId));
      expect(fetchedVideos.size).toBe(1);
      const row = await ledgerOf(env, id, (r) => r.requests >= 1);
      expect([row.requests, row.minutes]).toEqual([1, 1]);
      expect(row.sttSeconds).toBeGreaterThan(0);
    } finally {
      await rig.close();
    }
  });
});
