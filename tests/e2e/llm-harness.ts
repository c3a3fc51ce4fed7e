/** @module Starts the service under test with its fake YouTube and fake LLM for the llm-* end-to-end tests. */
import { type FakeLlm, startFakeLlm } from "../support/fake/llm.ts";
import type { ProviderLimitsOptions } from "../support/fake/provider-limits.ts";
import { type FakeYoutube, startFakeYoutube } from "../support/fake/youtube.ts";
import { postChat, type RunningService, startService } from "../support/service/process.ts";

/** The service under test with its two loopback fakes, for the llm-* end-to-end files. */
export interface LlmHarness {
  youtube: FakeYoutube;
  llm: FakeLlm;
  service: RunningService;
  /** POST /chat with the harness's API key. */
  chat(body: unknown): Promise<Response>;
  close(): Promise<void>;
}

/** @returns GROQ_MODEL for the harness's model option */
function model(option = "fake-model"): Record<string, string> {
  return option === "default" ? {} : { GROQ_MODEL: option };
}

export const API_KEY = "e2e-llm-key-0123456789";
export const GROQ_KEY = "gsk_fake_llm_e2e_secret";

/**
 * Starts fake YouTube, fake LLM and the real service pointed at both.
 *
 * @param env extra settings
 * @param options.offline starts the service without GROQ_API_KEY
 * @param options.limits the provider limits the fake LLM enforces
 * @param options.model GROQ_MODEL: `fake-model` (a plain model) by default, for tests whose subject is not the model;
 *   `default` leaves it unset, so the service runs on its default model (Groq's `openai/gpt-oss-20b`, which reasons)
 */
export async function startLlmHarness(
  env: Record<string, string> = {},
  options: { offline?: boolean; limits?: ProviderLimitsOptions; model?: string } = {},
): Promise<LlmHarness> {
  const youtube = startFakeYoutube();
  const llm = startFakeLlm({ limits: options.limits });
  const groq: Record<string, string> = options.offline
    ? {}
    : { GROQ_API_KEY: GROQ_KEY, GROQ_BASE_URL: llm.baseUrl, ...model(options.model) };
  const service = await startService({ API_KEYS: API_KEY, YOUTUBE_BASE_URL: youtube.origin, ...groq, ...env });
  return {
    youtube,
    llm,
    service,
    chat: (body) => postChat(service.url, body, { "x-api-key": API_KEY }),
    async close() {
      await service.stop();
      await youtube.close();
      await llm.close();
    },
  };
}
