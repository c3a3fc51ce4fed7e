/** @module Builds the keys, rate limits, caches and shared flights, in memory or through Redis. */
import { existsSync } from "node:fs";
import type { GeneratedAnswer } from "../../domain/chat.ts";
import { createLocalFlight } from "../../domain/coalesce.ts";
import type { ApiKeys, Cache, KeyIdentity, RateLimiter, SharedFlight, WorkGate } from "../../domain/ports.ts";
import type { Transcript } from "../../domain/transcript.ts";
import { createChainedApiKeys } from "../../adapters/keys/chained-api-keys.ts";
import { rememberHeldKeys } from "../../adapters/keys/held-keys-memory.ts";
import { createStaticApiKeys, generateApiKey } from "../../adapters/keys/env-api-keys.ts";
import { createFileApiKeys } from "../../adapters/keys/file-api-keys.ts";
import type { IssuedApiKeys } from "../../adapters/keys/issued-api-keys.ts";
import { type KeyDigest, rememberDigests, sha256Hex } from "../../adapters/keys/key-digest.ts";
import { approximateBytes } from "../../adapters/cache/approximate-bytes.ts";
import { createMemoryCache } from "../../adapters/cache/memory-cache.ts";
import { createLinesKeeper, type LinesKeeper } from "../../domain/reading/transcript-lines.ts";
import { type Budget, createMemoryRateLimiter } from "../../adapters/limits/memory-rate-limiter.ts";
import { createMemoryWorkGate } from "../../adapters/limits/memory-work-gate.ts";
import { createRedisApiKeys } from "../../adapters/keys/redis-api-keys.ts";
import { createRedisCache } from "../../adapters/cache/redis-cache.ts";
import type { RedisConnection } from "../../adapters/redis/redis-connection.ts";
import { createRedisRateLimiter } from "../../adapters/limits/redis-rate-limiter.ts";
import { createRedisSharedFlight } from "../../adapters/redis/redis-shared-flight.ts";
import type { Config } from "../config/config.ts";
import type { Logger } from "../log/logger.ts";
import { parseRateLimit } from "../config/rate-limit-spec.ts";
import type { UsageMeter } from "../../domain/usage/meter.ts";
import type { ServiceMetrics } from "../metrics/service-metrics.ts";
import { composeUsage } from "./usage.ts";

/** Keys, limits and caches: in process memory, or shared through Redis. */
export interface ServiceState {
  apiKeys: ApiKeys;
  /**
   * The keys as `POST /chat` verifies them: a key whose every request is held in Redis is remembered verified for
   * a few seconds (its hold refuses it once revoked), so such a request reads no key record.
   */
  chatKeys: ApiKeys;
  rateLimiter: RateLimiter;
  gate: WorkGate;
  transcriptCache: Cache<Transcript>;
  answerCache: Cache<GeneratedAnswer>;
  /** Identical transcript fetches and generations in flight, shared across instances with Redis. */
  flights: SharedFlight;
  /**
   * A key made at start-up because no store of keys is configured at all (no `API_KEYS`, no `REDIS_URL`, no keys
   * file yet); printed once in the banner. A store that cannot be read is never taken for "no keys".
   */
  generatedKey?: string;
  /** The shared Redis connection, when `REDIS_URL` is set. */
  redis?: RedisConnection;
  /** Usage per key and its quotas, in Redis or beside the keys file. */
  usage: UsageMeter;
  /**
   * Where the answer writers keep each transcript's lines and scores while it lives: counted in the in-process
   * transcript cache's bytes (`TRANSCRIPT_CACHE_MB`) when that cache keeps the transcript.
   */
  linesOf: LinesKeeper;
  close(): Promise<void>;
}

/** The store of issued keys the configuration names, as the CLI and the server use it. */
export interface KeyStore {
  keys: IssuedApiKeys;
  /** Where the keys live, for messages: the file's path, or `Redis`. */
  where: string;
  /** The Redis connection, when keys live in Redis. */
  redis?: RedisConnection;
  close(): Promise<void>;
}

const MB = 1024 * 1024;

/** How long start-up waits for Redis before going on without it. */
const REDIS_START_WAIT_MS = 3_000;

/**
 * Opens the issued-key store: Redis when `REDIS_URL` (or `REDIS_CLUSTER_NODES`) is set, else `KEYS_FILE`.
 *
 * @param config the validated settings
 * @param io.logger where Redis outages and file trouble are logged
 * @param digest how presented keys are digested (SHA-256 by default)
 */
export async function composeKeyStore(
  config: Config,
  io: { logger: Logger; onRedisAvailability?: (available: boolean) => void },
  digest?: KeyDigest,
): Promise<KeyStore> {
  if (!config.redis) {
    return {
      keys: createFileApiKeys({ path: config.keysFile, log: io.logger, digest }),
      where: config.keysFile,
      close: async () => {},
    };
  }
  // Loaded only when Redis is configured: evaluating ioredis is a third of the compiled binary's start-up.
  const { createRedisConnection } = await import("../../adapters/redis/redis-connection.ts");
  const redis = createRedisConnection({
    ...config.redis,
    password: config.redisPassword,
    prefix: config.redisKeyPrefix,
    log: io.logger,
    onAvailability: io.onRedisAvailability,
  });
  await redis.ready(REDIS_START_WAIT_MS);
  return { keys: createRedisApiKeys({ connection: redis, digest }), where: "Redis", redis, close: () => redis.close() };
}

/**
 * The caches' own Redis (`REDIS_CACHE_URL` or `REDIS_CACHE_CLUSTER_NODES`): its outages are cache misses, and do not
 * make the service unready.
 */
async function connectCacheRedis(config: Config, logger: Logger): Promise<RedisConnection> {
  const { createRedisConnection } = await import("../../adapters/redis/redis-connection.ts");
  return createRedisConnection({
    ...config.redisCache!,
    password: config.redisPassword,
    prefix: config.redisKeyPrefix,
    log: logger,
  });
}

/** Builds the state adapters the configuration asks for. */
export async function composeState(
  config: Config,
  io: {
    logger: Logger;
    metrics?: ServiceMetrics;
    onRedisAvailability?: (available: boolean) => void;
    onUsageAvailability?: (available: boolean) => void;
  },
): Promise<ServiceState> {
  // Clients send the same key with every request: its digest is computed once (at most 1,024 keys remembered).
  const digest = rememberDigests(sha256Hex);
  const store = await composeKeyStore(config, io, digest);
  const generatedKey = config.apiKeys.length === 0 && !config.redis && !existsSync(config.keysFile)
    ? generateApiKey()
    : undefined;
  const staticKeys = createStaticApiKeys(generatedKey ? [generatedKey] : config.apiKeys, { digest });
  warnShortKeys(config.apiKeys, io.logger);
  const budgetFor = budgetsFrom(config, io.logger);
  const memoryLimiter = createMemoryRateLimiter({ budgetFor });
  const { redis } = store;
  const usage = composeUsage(config, io, redis);
  const apiKeys = createChainedApiKeys([staticKeys, store.keys]);
  const cacheRedis = config.redisCache ? await connectCacheRedis(config, io.logger) : redis;
  const transcripts = cacheRedis ? undefined : createMemoryCache<Transcript>({
    maxEntries: config.transcriptCache.maxEntries,
    maxBytes: config.transcriptCache.maxMb * MB,
    ownerOf: (transcript) => transcript.cues,
  });
  return {
    apiKeys,
    chatKeys: redis ? rememberHeldKeys(apiKeys, { held: (identity) => usage.meters(identity), digest }) : apiKeys,
    rateLimiter: redis
      ? createRedisRateLimiter({
        connection: redis,
        budgetFor,
        failure: config.rateLimitFailure,
        fallback: memoryLimiter,
      })
      : memoryLimiter,
    gate: createMemoryWorkGate({ maxInFlight: config.maxInFlight, maxPerHolder: config.maxInFlightPerKey }),
    transcriptCache: transcripts ??
      createRedisCache<Transcript>({ connection: cacheRedis!, namespace: "transcript" }),
    // A transcript read from Redis is a new object each time: its lines live as long as the request.
    linesOf: createLinesKeeper(transcripts && ((cues, made) => transcripts.charge(cues, approximateBytes(made)))),
    answerCache: cacheRedis
      ? createRedisCache<GeneratedAnswer>({ connection: cacheRedis, namespace: "answer" })
      : createMemoryCache<GeneratedAnswer>({
        maxEntries: config.answerCache.maxEntries,
        maxBytes: config.answerCache.maxMb * MB,
      }),
    flights: redis
      ? createRedisSharedFlight({ connection: redis, outcomes: cacheRedis, leaseMs: config.sharedWorkLeaseMs })
      : createLocalFlight(),
    generatedKey,
    redis,
    usage,
    // Usage first: what it has not written yet goes out before the Redis connection closes.
    close: async () => {
      await usage.close();
      await store.close();
      if (cacheRedis !== redis) await cacheRedis?.close();
    },
  };
}

/** Keys shorter than this are guessable in bulk: start-up warns about each (by position, never the key). */
const SHORT_KEY_CHARS = 32;

function warnShortKeys(keys: readonly string[], logger: Logger): void {
  keys.forEach((key, index) => {
    if (key.length >= SHORT_KEY_CHARS) return;
    logger.warn("api_key_short", {
      position: index + 1,
      length: key.length,
      effect: `API_KEYS entry ${index + 1} has ${key.length} characters; use at least ${SHORT_KEY_CHARS} random ones`,
    });
  });
}

/**
 * @returns each key's budget: its own limit, else `RATE_LIMIT` (`60/min` when unset), none with `RATE_LIMIT=none`.
 *   A stored limit that does not parse falls back to the default (logged once per key).
 */
function budgetsFrom(config: Config, logger: Logger): (identity: KeyIdentity) => Budget | undefined {
  const parsed = new Map<string, Budget | undefined>();
  return (identity) => {
    if (!identity.rateLimit) return config.rateLimit;
    if (!parsed.has(identity.rateLimit)) {
      const budget = parseRateLimit(identity.rateLimit);
      if (!budget) logger.warn("key_rate_limit_invalid", { key_id: identity.id, rate_limit: identity.rateLimit });
      parsed.set(identity.rateLimit, budget);
    }
    return parsed.get(identity.rateLimit) ?? config.rateLimit;
  };
}
