import type { GeneratedAnswer } from "../domain/chat.ts";
import type { ApiKeys, Cache, RateLimiter, WorkGate } from "../domain/ports.ts";
import type { Transcript } from "../domain/transcript.ts";
import { createStaticApiKeys, generateApiKey } from "../adapters/env-api-keys.ts";
import { createMemoryCache } from "../adapters/memory-cache.ts";
import { createMemoryWorkGate } from "../adapters/memory-work-gate.ts";
import { unlimitedRateLimiter } from "../adapters/unlimited-rate-limiter.ts";
import type { Config } from "./config.ts";
import type { Logger } from "./logger.ts";

/** Keys, limits and caches: in process memory, or shared through Redis. */
export interface ServiceState {
  apiKeys: ApiKeys;
  rateLimiter: RateLimiter;
  gate: WorkGate;
  transcriptCache: Cache<Transcript>;
  answerCache: Cache<GeneratedAnswer>;
  /** A key made at start-up because none was configured; printed once in the banner. */
  generatedKey?: string;
  close(): Promise<void>;
}

/** Builds the state adapters the configuration asks for. */
export async function composeState(config: Config, _io: { logger: Logger }): Promise<ServiceState> {
  const generatedKey = config.apiKeys.length === 0 ? generateApiKey() : undefined;
  return {
    apiKeys: await createStaticApiKeys(generatedKey ? [generatedKey] : config.apiKeys),
    rateLimiter: unlimitedRateLimiter,
    gate: createMemoryWorkGate({ maxInFlight: config.maxInFlight }),
    transcriptCache: createMemoryCache<Transcript>({ maxEntries: config.transcriptCache.maxEntries }),
    answerCache: createMemoryCache<GeneratedAnswer>({ maxEntries: config.answerCache.maxEntries }),
    generatedKey,
    close: async () => {},
  };
}
