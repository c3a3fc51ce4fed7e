/** @module Starts the fake YouTube, the fake LLM and the real service, and asks `POST /chat` for a video. */
// deno-lint-ignore-file no-explicit-any -- reads JSON whose shape is checked field by field where it is used
import { type FakeLlm, startFakeLlm } from "../fake/llm.ts";
import { type FakeYoutube, startFakeYoutube } from "../fake/youtube.ts";
import { postChat, type RunningService, startService } from "./process.ts";

export const KEY = "e2e-youtube-key-0123456789";

/** The service under test with its loopback upstreams. */
export interface YoutubeRig {
  youtube: FakeYoutube;
  llm: FakeLlm;
  service: RunningService;
  close(): Promise<void>;
}

/**
 * Starts the fake YouTube, the fake LLM and the real service pointed at them.
 * Caches are off unless `env` turns them on, so every case reaches YouTube.
 */
export async function startYoutubeRig(
  env: Record<string, string> = {},
  options: { latencyMs?: number } = {},
): Promise<YoutubeRig> {
  const youtube = startFakeYoutube({ latencyMs: options.latencyMs });
  const llm = startFakeLlm();
  const service = await startService({
    API_KEYS: KEY,
    YOUTUBE_BASE_URL: youtube.origin,
    GROQ_API_KEY: "gsk_fake_for_youtube_tests",
    GROQ_BASE_URL: llm.baseUrl,
    GROQ_MODEL: "fake-model",
    // The subject here is not the provider's limits: a budget that never paces (the fake LLM states none).
    LLM_TOKENS_PER_MINUTE: "100000000",
    LLM_REQUESTS_PER_MINUTE: "1000000",
    YOUTUBE_TIMEOUT_MS: "1000",
    TRANSCRIPT_CACHE_TTL_MS: "0",
    ANSWER_CACHE_TTL_MS: "0",
    // Cases play blocks one after another on one service: the route's breaker (tested in youtube-routes) stays closed.
    YOUTUBE_ROUTE_FAILURES: "1000",
    ...env,
  });
  return {
    youtube,
    llm,
    service,
    async close() {
      await service.stop();
      await youtube.close();
      await llm.close();
    },
  };
}

/** One `POST /chat` outcome, with how long it took. */
export interface ChatOutcome {
  status: number;
  code?: string;
  message?: string;
  retryAfter: string | null;
  body: any;
  ms: number;
}

/** Sends `POST /chat` for a video id and reads the outcome. */
export async function ask(
  service: RunningService,
  videoId: string,
  fields: Record<string, string> = {},
): Promise<ChatOutcome> {
  const started = performance.now();
  const response = await postChat(service.url, { url: `https://www.youtube.com/watch?v=${videoId}`, ...fields }, {
    "x-api-key": KEY,
  });
  const body = await response.json();
  return {
    status: response.status,
    code: body?.error?.code,
    message: body?.error?.message,
    retryAfter: response.headers.get("retry-after"),
    body,
    ms: performance.now() - started,
  };
}
