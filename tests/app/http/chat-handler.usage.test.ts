/** @module Tests of the `POST /chat` handler with usage metering: quota headers, quota_exceeded, what is counted and when. */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createParser } from "eventsource-parser";
import { createSqliteUsageStore } from "../../../src/adapters/usage/sqlite-usage-store.ts";
import { createUsageMeter } from "../../../src/adapters/usage/usage-meter.ts";
import { createHttpApp } from "../../../src/app/http/http-app.ts";
import { silentLogger } from "../../../src/app/log/logger.ts";
import { createLiveStreams } from "../../../src/app/stream/live-streams.ts";
import type { KeyIdentity } from "../../../src/domain/ports.ts";
import type { Quota } from "../../../src/domain/usage/quota.ts";
import type { UsageStore } from "../../../src/domain/usage/meter.ts";
import { chatWithFakes } from "../../support/fake/ports.ts";

const dir = mkdtempSync(join(tmpdir(), "vcs-http-usage-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const VIDEO = "https://www.youtube.com/watch?v=GJLlxj_dtq8";
const NOW = Date.UTC(2026, 10, 14, 18);
const KEYS: Record<string, KeyIdentity> = {
  "ten-minutes": { id: "key_ten", name: "ten", quota: "10min/day" },
  "three-minutes": { id: "key_three", name: "three", quota: "3min/day" },
  "no-quota": { id: "key_free", name: "free" },
};
const QUOTAS: Record<string, Quota[]> = {
  "10min/day": [{ limit: 10, unit: "min", period: "day" }],
  "3min/day": [{ limit: 3, unit: "min", period: "day" }],
};

let files = 0;
function setUp() {
  const { chat, transcripts, writer } = chatWithFakes();
  const store: UsageStore = createSqliteUsageStore({ path: join(dir, `usage-${++files}.sqlite`) });
  const usage = createUsageMeter({
    store,
    quotasFor: (caller) => QUOTAS[caller.quota ?? ""] ?? [],
    defaultTimeoutMs: 5_000,
    now: () => NOW,
  });
  const app = createHttpApp({
    chat,
    apiKeys: { verify: async (key) => KEYS[key] },
    rateLimiter: { take: async () => ({ allowed: true, remaining: Infinity, resetSeconds: 0 }) },
    usage,
    maxBodyBytes: 16_384,
    logger: silentLogger,
    streams: { live: createLiveStreams(), timeoutMs: 5_000, keepAliveMs: 1_000 },
  });
  const post = (key: string, body: unknown = { url: VIDEO }, headers: Record<string, string> = {}) =>
    app.fetch(
      new Request("http://localhost/chat", {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": key, ...headers },
        body: JSON.stringify(body),
      }),
    );
  const ledger = async (keyId: string) => {
    await usage.flush();
    return (await store.read(["2026-11-14"], NOW)).find((row) => row.keyId === keyId);
  };
  return { post, ledger, transcripts, writer };
}

const quotaHeaders = (response: Response) =>
  ["quota-limit", "quota-remaining", "quota-reset", "quota-policy"].map((name) => response.headers.get(name));

describe("POST /chat with usage metering", () => {
  test("a 10min/day key: quota headers say 5, then 0 left; then 429 quota_exceeded with Retry-After to midnight", async () => {
    const { post, ledger, writer } = setUp();
    const first = await post("ten-minutes");
    expect(first.status).toBe(200);
    expect(quotaHeaders(first)).toEqual(["10", "5", String(6 * 3600), "10min/day"]);
    expect(quotaHeaders(await post("ten-minutes", { url: VIDEO, prompt: "another question" }))).toEqual([
      "10",
      "0",
      String(6 * 3600),
      "10min/day",
    ]);
    const refused = await post("ten-minutes");
    expect(refused.status).toBe(429);
    expect((await refused.json()).error.code).toBe("quota_exceeded");
    expect(refused.headers.get("retry-after")).toBe(String(6 * 3600));
    expect(quotaHeaders(refused)).toEqual(["10", "0", String(6 * 3600), "10min/day"]);
    expect(writer.specs).toHaveLength(2);
    const row = await ledger("key_ten");
    expect([row?.counts.requests, row?.counts.minutes, row?.counts.inputTokens, row?.counts.refused]).toEqual([
      2,
      10,
      20,
      { quota_exceeded: 1 },
    ]);
  });

  test("a 5-minute video on a key with 3 minutes left is refused before the model is asked, and not charged", async () => {
    const { post, ledger, writer, transcripts } = setUp();
    const refused = await post("three-minutes");
    expect(refused.status).toBe(429);
    const { error } = await refused.json();
    expect(error.code).toBe("quota_exceeded");
    expect(error.message).toContain(
      "The video is charged 5 minutes (its length, or its transcript's text at 1000 characters a minute when longer) and this API key has 3 of its 3 video minutes",
    );
    expect(quotaHeaders(refused).slice(0, 2)).toEqual(["3", "3"]);
    expect(transcripts.calls).toHaveLength(1);
    expect(writer.specs).toHaveLength(0);
    const row = await ledger("key_three");
    expect([row?.counts.requests, row?.counts.minutes, row?.held]).toEqual([0, 0, { min: 0, req: 0 }]);
  });

  test("a failed request costs nothing and is counted as refused; a key without a quota gets no quota header", async () => {
    const { post, ledger, transcripts } = setUp();
    transcripts.failWith = "video_unavailable";
    const failed = await post("ten-minutes");
    expect(failed.status).toBe(422);
    expect(quotaHeaders(failed).slice(0, 2)).toEqual(["10", "10"]);
    const free = await post("no-quota");
    expect(free.status).toBe(422);
    expect(free.headers.get("quota-limit")).toBeNull();
    expect((await post("no-quota", { url: VIDEO, langauge: "en" })).status).toBe(400);
    expect((await post("not-a-key")).status).toBe(401);
    const row = await ledger("key_ten");
    expect([row?.counts.requests, row?.counts.minutes, row?.counts.refused]).toEqual([0, 0, { video_unavailable: 1 }]);
    expect((await ledger("key_free"))?.counts.refused).toEqual({ video_unavailable: 1, invalid_request: 1 });
  });

  test("a stream is charged when its done is sent; a too-long video is refused before its stream opens (nothing was sent)", async () => {
    const { post, ledger } = setUp();
    const streamed = await post("ten-minutes", { url: VIDEO }, { accept: "text/event-stream" });
    expect(streamed.status).toBe(200);
    expect(quotaHeaders(streamed).slice(0, 2)).toEqual(["10", "10"]);
    expect((await events(streamed)).at(-1)?.event).toBe("done");
    expect((await ledger("key_ten"))?.counts.minutes).toBe(5);
    await post("ten-minutes", { url: VIDEO, prompt: "spend the rest" });
    const refused = await post("ten-minutes", { url: VIDEO, prompt: "q" }, { accept: "text/event-stream" });
    expect(refused.status).toBe(429);
    const tooLong = setUp();
    const stream = await tooLong.post("three-minutes", { url: VIDEO }, { accept: "text/event-stream" });
    expect(stream.status).toBe(429);
    expect((await stream.json()).error.code).toBe("quota_exceeded");
    expect((await tooLong.ledger("key_three"))?.counts.refused).toEqual({ quota_exceeded: 1 });
  });
});

async function events(response: Response): Promise<{ event?: string; data: string }[]> {
  const seen: { event?: string; data: string }[] = [];
  const parser = createParser({ onEvent: (event) => seen.push({ event: event.event, data: event.data }) });
  parser.feed(await response.text());
  return seen;
}
