/** @module End-to-end tests of the request log and `Server-Timing`: fields, cache hits, refusals, no secrets. */
import { describe, expect, test } from "bun:test";
import { servicePerFile } from "../support/service/per-file.ts";
import { VIDEOS, watchUrl } from "../support/fixtures.ts";
import { type LogLine, requestLogLines } from "../support/request-log-lines.ts";
import { postChat, startService, targetFromEnv } from "../support/service/process.ts";

const KEY = "e2e-logs-key-0123456789";
const GROQ_KEY = "gsk_fake_logs_secret";
const PROMPT = "Which zebra-striped marmalade does the reviewer secretly prefer?";

const rig = servicePerFile(({ youtube, llm }) => ({
  API_KEYS: KEY,
  YOUTUBE_BASE_URL: youtube.origin,
  GROQ_API_KEY: GROQ_KEY,
  GROQ_BASE_URL: llm.baseUrl,
  LOG_FORMAT: "json",
}));

type Line = LogLine;

async function lineFor(response: Response): Promise<Line> {
  const lines = await requestLogLines(rig.service, response);
  expect(lines.length).toBe(1);
  return lines[0]!;
}

describe(`request logs and Server-Timing (${targetFromEnv()})`, () => {
  test("a generated answer logs one JSON line with key id, video id, cache miss, upstream timings, tokens and how the prompt was read and the model; Server-Timing has transcript, generation, intent, plan, model and total", async () => {
    const response = await postChat(rig.service.url, { url: watchUrl("normal"), prompt: PROMPT }, { "x-api-key": KEY });
    expect(response.status).toBe(200);
    expect(response.headers.get("server-timing")).toMatch(
      /^transcript;dur=[\d.]+, generation;dur=[\d.]+, intent;desc=detail, plan;desc=one-call, coverage;desc=1.000, model;desc="[^"]+", cache;desc=miss, total;dur=[\d.]+$/,
    );
    const line = await lineFor(response);
    expect(line).toMatchObject({
      level: "info",
      method: "POST",
      path: "/chat",
      status: 200,
      video_id: VIDEOS.normal.id,
      cache: "miss",
      prompt_length: [...PROMPT].length,
      intent: "detail",
      plan: "one-call",
      model: expect.any(String),
      llm_calls: expect.any(Number),
      input_tokens: expect.any(Number),
      output_tokens: expect.any(Number),
    });
    expect(line.duration_ms).toBeNumber();
    expect(line.transcript_ms).toBeNumber();
    expect(line.generation_ms).toBeNumber();
    expect(String(line.key_id)).not.toContain(KEY);
  });

  test("the same request again is logged as a cache hit, and Server-Timing says so with its total", async () => {
    const response = await postChat(rig.service.url, { url: watchUrl("normal"), prompt: PROMPT }, { "x-api-key": KEY });
    expect(response.headers.get("server-timing")).toMatch(/^cache;desc=hit, total;dur=[\d.]+$/);
    const line = await lineFor(response);
    expect(line).toMatchObject({ status: 200, cache: "hit", video_id: VIDEOS.normal.id });
    expect(line.generation_ms).toBeUndefined();
  });

  test("refused requests are logged with their status and error code: 404, 401, 400", async () => {
    const notFound = await fetch(`${rig.service.url}/nope?token=abc`);
    expect(await lineFor(notFound)).toMatchObject({
      method: "GET",
      path: "/nope",
      status: 404,
      error_code: "not_found",
    });
    const noKey = await postChat(rig.service.url, { url: watchUrl("normal") });
    expect(await lineFor(noKey)).toMatchObject({ status: 401, error_code: "unauthorized" });
    const invalid = await postChat(rig.service.url, { url: "not a url", prompt: PROMPT }, { "x-api-key": KEY });
    const line = await lineFor(invalid);
    expect(line).toMatchObject({ status: 400, error_code: "invalid_request", key_id: expect.any(String) });
  });

  test("no log line holds an API key, the Groq key, the prompt's text or a query string", () => {
    const output = rig.service.output();
    expect(output).not.toContain(KEY);
    expect(output).not.toContain(GROQ_KEY);
    expect(output).not.toContain("marmalade");
    expect(output).not.toContain("token=abc");
  });
});

describe(`pretty logs (${targetFromEnv()})`, () => {
  test("LOG_FORMAT=pretty writes one readable line per request instead of JSON", async () => {
    const pretty = await startService({ API_KEYS: KEY, YOUTUBE_BASE_URL: rig.youtube.origin, LOG_FORMAT: "pretty" });
    try {
      const response = await fetch(`${pretty.url}/missing`);
      const id = response.headers.get("x-request-id")!;
      const line = (await pretty.outputWith(id)).split("\n").find((l) => l.includes(id));
      expect(line).toMatch(
        /^\S+ INFO request request_id=\S+ method=GET path=\/missing status=404 duration_ms=[\d.]+ error_code=not_found$/,
      );
    } finally {
      await pretty.stop();
    }
  }, 30_000);
});
