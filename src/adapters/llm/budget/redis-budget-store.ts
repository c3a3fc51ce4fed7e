/** @module The LLM provider's budget in Redis, shared by every instance using the key. */
import type { RedisConnection } from "../../redis/redis-connection.ts";
import { type BudgetStore, MIN_PLAUSIBLE_TOKEN_LIMIT } from "./budget-store.ts";
import type { Limits } from "./token-bucket.ts";

/**
 * The rules of `createMemoryBudgetStore()` as one Lua script run atomically
 * inside Redis on Redis's own clock, so every instance shares one budget
 * per budget key (endpoint, model, API key digest: see `budgetKey`). ARGV: op (take, give, observe, peek), window ms,
 * default token
 * and request limits, then the op's figures (-1: not stated). Returns
 * [wait ms or 0, tokens, token limit, request limit, blocked ms], as
 * integers (Lua numbers are truncated on the way out).
 */
const SCRIPT = `
local op = ARGV[1]
local window = tonumber(ARGV[2])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local s = redis.call('HMGET', KEYS[1], 'tpm', 'rpm', 'tokens', 'requests', 'at', 'blocked')
local tpm = tonumber(s[1]) or tonumber(ARGV[3])
local rpm = tonumber(s[2]) or tonumber(ARGV[4])
local tokens = tonumber(s[3]) or tpm
local requests = tonumber(s[4]) or rpm
local at = tonumber(s[5]) or now
local blocked = tonumber(s[6]) or 0
local elapsed = math.max(0, now - at)
tokens = math.min(tpm, tokens + elapsed * tpm / window)
requests = math.min(rpm, requests + elapsed * rpm / window)
local wait = 0
if op == 'take' then
  local cost = tonumber(ARGV[5])
  local reserve = math.max(0, math.min(tonumber(ARGV[6]), tpm - cost))
  wait = math.max(0, (cost + reserve - tokens) * window / tpm, (1 - requests) * window / rpm, blocked - now)
  if wait <= 0 then tokens = tokens - cost; requests = requests - 1 end
elseif op == 'give' then
  tokens = math.min(tpm, tokens + tonumber(ARGV[5]))
elseif op == 'observe' then
  local new_tpm, left_tokens = tonumber(ARGV[5]), tonumber(ARGV[6])
  local new_rpm, left_requests = tonumber(ARGV[7]), tonumber(ARGV[8])
  local retry_ms = tonumber(ARGV[9])
  local function align(ours, theirs, old_cap, new_cap)
    local v
    if theirs < 0 then v = ours + (new_cap - old_cap)
    elseif old_cap ~= new_cap then v = theirs
    else v = math.min(ours, theirs) end
    return math.min(new_cap, v)
  end
  if new_tpm < tonumber(ARGV[10]) then new_tpm = tpm end
  if new_rpm <= 0 then new_rpm = rpm end
  tokens = align(tokens, left_tokens, tpm, new_tpm)
  requests = align(requests, left_requests, rpm, new_rpm)
  tpm, rpm = new_tpm, new_rpm
  if retry_ms > 0 then blocked = math.max(blocked, now + retry_ms) end
end
if op ~= 'peek' then
  redis.call('HSET', KEYS[1], 'tpm', tpm, 'rpm', rpm,
    'tokens', string.format('%.17g', tokens), 'requests', string.format('%.17g', requests),
    'at', string.format('%d', now), 'blocked', string.format('%d', blocked))
  redis.call('PEXPIRE', KEYS[1], window * 10)
end
return {math.ceil(wait), math.floor(tokens), tpm, rpm, math.max(0, blocked - now)}
`;

type Reply = [number, number, number, number, number];

/**
 * The provider's budget in Redis, shared by every instance using the key.
 * While Redis is unreachable each instance keeps to its own budget
 * (`fallback`); the connection logs the outage once.
 *
 * @param options.key the budget's name (see `budgetKey`), prefixed with the connection's prefix
 * @param options.fallback the store used while Redis is unreachable
 */
export function createRedisBudgetStore(
  options: { connection: RedisConnection; key: string; limits: Limits; windowMs: number; fallback: BudgetStore },
): BudgetStore {
  const { connection, fallback } = options;
  const key = `${connection.prefix}llm-budget:${options.key}`;
  let sha: Promise<string> | undefined;

  const run = async (op: string, figures: number[]): Promise<Reply> => {
    sha ??= sha1Hex(SCRIPT);
    const digest = await sha;
    const args = [op, options.windowMs, options.limits.tokensPerWindow, options.limits.requestsPerWindow, ...figures];
    return await connection.run(async (client) => {
      try {
        return (await client.evalsha(digest, 1, key, ...args)) as Reply;
      } catch (error) {
        if (!(error instanceof Error) || !error.message.startsWith("NOSCRIPT")) throw error;
        return (await client.eval(SCRIPT, 1, key, ...args)) as Reply;
      }
    });
  };

  return {
    async take(tokens, keep = 0) {
      try {
        return (await run("take", [tokens, keep]))[0];
      } catch {
        return await fallback.take(tokens, keep);
      }
    },
    async give(tokens) {
      await run("give", [tokens]).catch(() => fallback.give(tokens));
    },
    async observe(report) {
      const stated = (value: number | undefined) => value ?? -1;
      await fallback.observe(report);
      const figures = [
        stated(report.tokenLimit),
        stated(report.tokensRemaining),
        stated(report.requestLimit),
        stated(report.requestsRemaining),
        report.retryAfterMs ?? 0,
        MIN_PLAUSIBLE_TOKEN_LIMIT,
      ];
      await run("observe", figures).catch(() => undefined);
    },
    async peek() {
      try {
        const [, tokens, tpm, rpm, blockedMs] = await run("peek", []);
        return {
          tokens,
          limits: { tokensPerWindow: tpm, requestsPerWindow: rpm },
          blockedMs,
          windowMs: options.windowMs,
        };
      } catch {
        return await fallback.peek();
      }
    },
  };
}

async function sha1Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-1", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}
