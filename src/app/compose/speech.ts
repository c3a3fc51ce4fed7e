/** @module Builds speech-to-text (`STT=groq`): the Groq transcriber and its budget, in Redis if there is one. */
import type { ServiceIo } from "./io.ts";
import { type BudgetStore, createMemoryBudgetStore } from "../../adapters/llm/budget/budget-store.ts";
import { createRedisBudgetStore } from "../../adapters/llm/budget/redis-budget-store.ts";
import type { Limits } from "../../adapters/llm/budget/token-bucket.ts";
import type { RedisConnection } from "../../adapters/redis/redis-connection.ts";
import { createGroqTranscriber } from "../../adapters/speech/groq-transcriber.ts";
import { createSpeechBudget } from "../../adapters/speech/speech-budget.ts";
import { createSpeechReader } from "../../adapters/speech/speech-reader.ts";
import type { SpeechReader } from "../../adapters/youtube/speech-fallback.ts";
import type { ClientHealth } from "../../adapters/youtube/client-health.ts";
import { innertubeClients } from "../../adapters/youtube/innertube-clients.ts";
import type { Config } from "../config/config.ts";

/**
 * @param config the validated settings (`config.stt` undefined: speech-to-text off)
 * @param io `fetch` for the provider (a loopback fake's in tests) and the metrics
 * @param parts.redis the shared connection, when the budget is shared by instances
 * @param parts.health told what each audio client answered (the per-client gauge)
 * @returns the reader the InnerTube source falls back to, or undefined when off
 */
export function composeSpeech(
  config: Config,
  io: Pick<ServiceIo, "fetch" | "metrics">,
  parts: { redis?: RedisConnection; health?: ClientHealth } = {},
): SpeechReader | undefined {
  const { redis, health } = parts;
  const stt = config.stt;
  const api = config.llmApi;
  if (!stt || !api.apiKey) return undefined;
  const store = (key: string, limits: Limits, windowMs: number): BudgetStore => {
    const memory = createMemoryBudgetStore({ limits, windowMs });
    return redis ? createRedisBudgetStore({ connection: redis, key, limits, windowMs, fallback: memory }) : memory;
  };
  // Audio seconds over the hour; requests over the minute, counted as one token each (the LLM budget's stores, other
  // keys).
  const seconds = store(`stt-seconds:${stt.model}`, {
    tokensPerWindow: stt.audioSecondsPerHour,
    requestsPerWindow: 1_000_000_000,
  }, stt.budgetWindowMs);
  const requests = store(`stt-requests:${stt.model}`, {
    tokensPerWindow: stt.requestsPerMinute,
    requestsPerWindow: stt.requestsPerMinute,
  }, stt.budgetWindowMs / 60);
  return createSpeechReader({
    transcribe: createGroqTranscriber({
      apiKey: api.apiKey,
      baseUrl: api.baseUrl,
      dialect: api.dialect,
      model: stt.model,
      timeoutMs: config.llm.timeoutMs,
      fetch: io.fetch,
    }),
    budget: createSpeechBudget({ seconds, requests }),
    audioClients: innertubeClients(stt.audioClients),
    health,
    maxMinutes: stt.maxMinutes,
    chunkBytes: stt.chunkBytes,
    defaultTimeoutMs: config.requestTimeoutMs,
    observe: io.metrics?.speech,
  });
}
