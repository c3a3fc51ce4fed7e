/** @module The service's settings, loaded and validated once from the environment at start-up. */
import { EnvReader, PORTS } from "./readers.ts";
import { readYoutubeRoutes, type YoutubeRoutesConfig } from "./youtube-routes.ts";
import { type RateLimitSpec, readRateLimit } from "./rate-limit-spec.ts";
import { readStt, type SttConfig } from "./stt.ts";
import { type LlmApiConfig, type ModelFigures, readLlmApi, readModelFigures } from "./llm-api.ts";
import { type LlmLink, readLlmChain } from "./llm-chain.ts";
import { type ClientSetting, readYoutubeClients } from "./youtube-clients.ts";
import { readQuota } from "./quota-spec.ts";
import type { Quota } from "../../domain/usage/quota.ts";
import type { RedisAddress } from "../../adapters/redis/redis-connection.ts";
import { readRedisAddress } from "./redis-address.ts";

/** Every setting of the service, read once at start-up. Names are in docs/configuration.md. */
export interface Config {
  port: number;
  host: string;
  apiKeys: string[];
  keysFile: string;
  /** The LLM endpoint and model (`LLM_*`, or their `GROQ_*` synonyms). */
  llmApi: LlmApiConfig;
  /** Every model that may write an answer, in the order tried: the primary (`llmApi.model`, `llm`'s figures) first. */
  llmChain: LlmLink[];
  youtube:
    & { baseUrl: string; proxy?: string; timeoutMs: number }
    /** `YOUTUBE_CLIENTS` (caption clients) and `YOUTUBE_AUDIO_CLIENTS` (audio clients), read whatever `STT` says. */
    & { clients: ClientSetting[]; audioClients: ClientSetting[] }
    & YoutubeRoutesConfig;
  llm: {
    timeoutMs: number;
    maxRetries: number;
    retryBudgetMs: number;
    /**
     * Optional cap on one call's input; unset, calls grow to what the context window and the provider's limit allow.
     */
    inputTokenBudget?: number;
    maxOutputTokens: number;
    concurrency: number;
  } & ModelFigures;
  requestTimeoutMs: number;
  /** A streamed request's time limit, and the longest silence on its stream (at most 15 s). */
  stream: { timeoutMs: number; keepAliveMs: number };
  /** Bounds on slow and idle connections, the same on every runtime (docs/decisions.md). */
  connection: { headersTimeoutMs: number; bodyTimeoutMs: number; idleTimeoutMs: number };
  maxBodyBytes: number;
  maxInFlight: number;
  /** One key's most generations in flight: its share of `maxInFlight`. */
  maxInFlightPerKey: number;
  /** Every key's limit without its own (`RATE_LIMIT`): `60/min` by default, none with `RATE_LIMIT=none`. */
  rateLimit?: RateLimitSpec;
  rateLimitFailure: "open" | "closed";
  /** Quotas of every key without its own (`QUOTA`); none by default. */
  quota: Quota[];
  /** How long a request's quota hold outlives its time limit should its process die (`USAGE_HOLD_GRACE_MS`). */
  usageHoldGraceMs: number;
  /** The shared Redis (`REDIS_URL`), or a Redis Cluster (`REDIS_CLUSTER_NODES`). */
  redis?: RedisAddress;
  /**
   * A Redis of their own for the caches (`REDIS_CACHE_URL`, or a cluster: `REDIS_CACHE_CLUSTER_NODES`), so they never
   * take the memory of keys and usage.
   */
  redisCache?: RedisAddress;
  /** Redis's password when the URL carries none (`REDIS_PASSWORD`, say from a Kubernetes Secret). */
  redisPassword?: string;
  /** Prepended to every Redis key, so several services (or test runs) can share one Redis. */
  redisKeyPrefix: string;
  corsOrigins: string[];
  /** In-process caches (without Redis): lifetime, and bounds in entries and in megabytes of heap. */
  transcriptCache: { ttlMs: number; maxEntries: number; maxMb: number };
  answerCache: { ttlMs: number; maxEntries: number; maxMb: number };
  /** Lease of shared work in Redis: a dead owner's work is taken over after about this long. */
  sharedWorkLeaseMs: number;
  logFormat: "json" | "pretty" | "auto";
  shutdownGraceMs: number;
  /** Speech-to-text of caption-less videos (`STT=groq`); undefined when off. */
  stt?: SttConfig;
  /** The admin listener (health, readiness, metrics); none unless `ADMIN_PORT` is set. */
  admin?: { port: number; host: string; redisGraceMs: number };
  /** The MCP listener (Streamable HTTP at `/mcp`); none unless `MCP_PORT` is set. */
  mcp?: { port: number; host: string };
}

/** Start-up stops with this when settings are wrong; its message lists every problem. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

const HOUR_MS = 3_600_000;

/**
 * @param env the process environment
 * @throws {ConfigError} naming every variable with a bad value
 */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const read = new EnvReader(env);
  const llmApi = readLlmApi(read);
  const maxInFlight = read.int("MAX_IN_FLIGHT", 64, { min: 1, max: 100_000 });
  const proxy = read.optionalUrl("HTTPS_PROXY", { secret: true }) ?? read.optionalUrl("https_proxy", { secret: true });
  const config: Config = {
    port: read.int("PORT", 3000, PORTS),
    host: read.host("HOST", "0.0.0.0"),
    apiKeys: read.list("API_KEYS"),
    keysFile: read.string("KEYS_FILE", "./data/api-keys.json"),
    llmApi,
    llmChain: [],
    youtube: {
      baseUrl: read.url("YOUTUBE_BASE_URL", "https://www.youtube.com", { origin: true }),
      proxy,
      timeoutMs: read.int("YOUTUBE_TIMEOUT_MS", 10_000, { min: 100, max: 120_000 }),
      ...readYoutubeClients(read),
      ...readYoutubeRoutes(read, proxy),
    },
    llm: {
      timeoutMs: read.int("LLM_TIMEOUT_MS", 60_000, { min: 100, max: 600_000 }),
      maxRetries: read.int("LLM_MAX_RETRIES", 2, { min: 0, max: 10 }),
      retryBudgetMs: read.int("LLM_RETRY_BUDGET_MS", 10_000, { min: 0, max: 300_000 }),
      inputTokenBudget: read.optionalInt("LLM_INPUT_TOKEN_BUDGET", { min: 500, max: 10_000_000 }),
      maxOutputTokens: read.int("LLM_MAX_OUTPUT_TOKENS", 1_024, { min: 64, max: 32_768 }),
      // 16: a long video's parts are mapped in one wave when the provider's budget allows (docs/decisions.md).
      concurrency: read.int("LLM_CONCURRENCY", 16, { min: 1, max: 64 }),
      ...readModelFigures(read, llmApi),
    },
    requestTimeoutMs: read.int("REQUEST_TIMEOUT_MS", 120_000, { min: 1_000, max: 900_000 }),
    stream: {
      timeoutMs: read.int("STREAM_TIMEOUT_MS", 600_000, { min: 1_000, max: 3_600_000 }),
      keepAliveMs: read.int("STREAM_KEEPALIVE_MS", 15_000, { min: 50, max: 15_000 }),
    },
    // Bun counts its idle timeout in whole seconds, at most 255.
    connection: {
      headersTimeoutMs: read.int("HEADERS_TIMEOUT_MS", 10_000, { min: 1_000, max: 600_000 }),
      bodyTimeoutMs: read.int("BODY_TIMEOUT_MS", 10_000, { min: 100, max: 600_000 }),
      idleTimeoutMs: read.int("IDLE_TIMEOUT_MS", 10_000, { min: 1_000, max: 255_000 }),
    },
    maxBodyBytes: read.int("MAX_BODY_BYTES", 16_384, { min: 1_024, max: 10_485_760 }),
    maxInFlight,
    // Half the slots by default: a key's burst leaves the other keys at least as many as it takes.
    maxInFlightPerKey: read.int("MAX_IN_FLIGHT_PER_KEY", Math.max(1, Math.floor(maxInFlight / 2)), {
      min: 1,
      max: 100_000,
    }),
    rateLimit: readRateLimit(read),
    rateLimitFailure: read.oneOf("RATE_LIMIT_ON_REDIS_FAILURE", ["open", "closed"] as const, "open"),
    quota: readQuota(read),
    // Longer than the ledger's write behind (1 s): an answer's entry replaces its hold before the hold lapses.
    usageHoldGraceMs: read.int("USAGE_HOLD_GRACE_MS", 60_000, { min: 2_000, max: 3_600_000 }),
    redis: readRedisAddress(read, "REDIS_URL", "REDIS_CLUSTER_NODES"),
    redisCache: readRedisAddress(read, "REDIS_CACHE_URL", "REDIS_CACHE_CLUSTER_NODES"),
    redisPassword: read.raw("REDIS_PASSWORD") || undefined,
    redisKeyPrefix: readKeyPrefix(read),
    corsOrigins: read.list("CORS_ORIGINS"),
    transcriptCache: {
      ttlMs: read.int("TRANSCRIPT_CACHE_TTL_MS", 6 * HOUR_MS, { min: 0, max: 30 * 24 * HOUR_MS }),
      maxEntries: read.int("TRANSCRIPT_CACHE_MAX_ENTRIES", 500, { min: 1, max: 1_000_000 }),
      // A 12-hour transcript holds about 4.6 MiB: 64 MB keeps a dozen of those, or hundreds of usual ones.
      maxMb: read.int("TRANSCRIPT_CACHE_MB", 64, { min: 1, max: 65_536 }),
    },
    answerCache: {
      ttlMs: read.int("ANSWER_CACHE_TTL_MS", HOUR_MS, { min: 0, max: 30 * 24 * HOUR_MS }),
      maxEntries: read.int("ANSWER_CACHE_MAX_ENTRIES", 2_000, { min: 1, max: 1_000_000 }),
      maxMb: read.int("ANSWER_CACHE_MB", 16, { min: 1, max: 65_536 }),
    },
    sharedWorkLeaseMs: read.int("SHARED_WORK_LEASE_MS", 5_000, { min: 100, max: 600_000 }),
    logFormat: read.oneOf("LOG_FORMAT", ["json", "pretty", "auto"] as const, "auto"),
    shutdownGraceMs: read.int("SHUTDOWN_GRACE_MS", 30_000, { min: 0, max: 600_000 }),
  };
  config.llmChain = readLlmChain(read, llmApi, config.llm);
  config.admin = readAdmin(read, config.port);
  config.mcp = readMcp(read, config.port, config.admin?.port);
  config.stt = readStt(read, config.llmApi.apiKey !== undefined, config.youtube.audioClients);
  if (read.problems.length > 0) throw new ConfigError(read.problems);
  return config;
}

/** `ADMIN_PORT` turns the admin listener on; it must differ from `PORT` (0 for both means two free ports). */
function readAdmin(read: EnvReader, port: number): Config["admin"] {
  const redisGraceMs = read.int("READINESS_REDIS_GRACE_MS", 30_000, { min: 0, max: 3_600_000 });
  if (read.raw("ADMIN_PORT") === undefined) return undefined;
  const adminPort = read.int("ADMIN_PORT", 0, PORTS);
  if (adminPort !== 0 && adminPort === port) read.fail(`ADMIN_PORT must differ from PORT: both are ${port}`);
  return { port: adminPort, host: read.host("ADMIN_HOST", "127.0.0.1"), redisGraceMs };
}

/** `MCP_PORT` turns the MCP listener on; it must differ from `PORT` and `ADMIN_PORT` (0 means a free port). */
function readMcp(read: EnvReader, port: number, adminPort: number | undefined): Config["mcp"] {
  if (read.raw("MCP_PORT") === undefined) return undefined;
  const mcpPort = read.int("MCP_PORT", 0, PORTS);
  if (mcpPort !== 0 && mcpPort === port) read.fail(`MCP_PORT must differ from PORT: both are ${port}`);
  if (mcpPort !== 0 && mcpPort === adminPort) read.fail(`MCP_PORT must differ from ADMIN_PORT: both are ${mcpPort}`);
  return { port: mcpPort, host: read.host("MCP_HOST", "127.0.0.1") };
}

/**
 * `REDIS_KEY_PREFIX`: on a Redis Cluster it holds no `{` or `}`, which would make it every key's hash tag (every key
 * in one slot, on one node).
 */
function readKeyPrefix(read: EnvReader): string {
  const prefix = read.string("REDIS_KEY_PREFIX", "vcs:");
  const cluster = read.raw("REDIS_CLUSTER_NODES") ?? read.raw("REDIS_CACHE_CLUSTER_NODES");
  if (cluster && /[{}]/.test(prefix)) {
    read.fail("REDIS_KEY_PREFIX must not hold { or } on a Redis Cluster: every key would go to one node");
  }
  return prefix;
}

/** The exit code of a start-up refused for its settings (every entry point: server, MCP mode). */
export const EXIT_BAD_CONFIG = 2;

/**
 * The settings, or the problems printed and the process ended with {@link EXIT_BAD_CONFIG}.
 *
 * @param io the environment, where problems are printed, and how the process exits
 */
export function loadConfigOrExit(io: SettingsIo): Config {
  return readOrExit(io, loadConfig);
}

/** Where settings are read from, and how a process with bad ones says so and exits. */
export interface SettingsIo {
  env: Record<string, string | undefined>;
  printError(line: string): void;
  exit(code: number): never;
}

/**
 * @param read reads settings from the environment, throwing `ConfigError` naming every bad one
 * @returns what `read` returns; on a `ConfigError`, its message printed and the process exited with 2
 */
export function readOrExit<T>(io: SettingsIo, read: (env: Record<string, string | undefined>) => T): T {
  try {
    return read(io.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    io.printError(error.message);
    return io.exit(EXIT_BAD_CONFIG);
  }
}
