/** @module The LLM provider's budget in Redis, shared by every instance using the key. */
import type { RedisConnection } from "../../redis/redis-connection.ts";
import { type BudgetStore, type BudgetView, MIN_PLAUSIBLE_TOKEN_LIMIT } from "./budget-store.ts";
import { BUDGET_FIELDS, lookAtHash } from "./budget-hash.ts";
import { redisClockOf } from "../../redis/redis-clock.ts";
import type { LimitReport } from "./limits-report.ts";
import { type Limits, WINDOWS_PER_DAY } from "./token-bucket.ts";

/**
 * The rules of `createMemoryBudgetStore()` as one Lua script run atomically
 * inside Redis on Redis's clock as the instances read it (`redisClockOf`: no
 * `TIME` per script), so every instance shares one budget
 * per budget key (endpoint, model, API key digest: see `budgetKey`). ARGV:
 * op (take, settle; a look reads the hash alone: see `lookAtHash`), window ms, the assumed token and request limits
 * per window and per day (-1: none), then the op's figures: take's tokens and
 * tokens to keep; settle's tokens to give back, then the provider's report if
 * there is one (-1: not stated); last, the time (ms). Returns [wait ms or 0, tokens, token limit,
 * request limit, blocked ms, day tokens, day token limit, day requests, day
 * request limit, day blocked ms], as integers (Lua numbers are truncated on
 * the way out; -1 for a day limit that is not known): for take, the budget
 * as the take found it; else as the op left it. A take that must wait writes
 * nothing (the levels refill the same from where they were).
 */
const SCRIPT = `
local op = ARGV[1]
local window = tonumber(ARGV[2])
local day_ms = window * ${WINDOWS_PER_DAY}
local now = tonumber(ARGV[#ARGV])
local s = redis.call('HMGET', KEYS[1], ${BUDGET_FIELDS.map((name) => `'${name}'`).join(", ")})
local function limit(stored, assumed)
  if stored then return tonumber(stored) end
  return tonumber(assumed)
end
local tpm = limit(s[1], ARGV[3])
local rpm = limit(s[2], ARGV[4])
local tpd = limit(s[7], ARGV[5])
local rpd = limit(s[8], ARGV[6])
local tokens = tonumber(s[3]) or tpm
local requests = tonumber(s[4]) or rpm
local dtokens = tonumber(s[9]) or math.max(tpd, 0)
local drequests = tonumber(s[10]) or math.max(rpd, 0)
local at = tonumber(s[5]) or now
local blocked = tonumber(s[6]) or 0
local dblocked = tonumber(s[11]) or 0
local tpd_stated = s[12] == '1'
local elapsed = math.max(0, now - at)
tokens = math.min(tpm, tokens + elapsed * tpm / window)
requests = math.min(rpm, requests + elapsed * rpm / window)
if tpd > 0 then dtokens = math.min(tpd, dtokens + elapsed * tpd / day_ms) end
if rpd > 0 then drequests = math.min(rpd, drequests + elapsed * rpd / day_ms) end
local function reply(w)
  return {math.ceil(w), math.floor(tokens), tpm, rpm, math.max(0, blocked - now),
    math.floor(dtokens), tpd, math.floor(drequests), rpd, math.max(0, dblocked - now)}
end
local wait = 0
local found
if op == 'take' then
  local cost = tonumber(ARGV[7])
  local reserve = math.max(0, math.min(tonumber(ARGV[8]), tpm - cost))
  wait = math.max(0, (cost + reserve - tokens) * window / tpm, (1 - requests) * window / rpm, blocked - now,
    dblocked - now)
  if tpd > 0 then wait = math.max(wait, (cost - dtokens) * day_ms / tpd) end
  if rpd > 0 then wait = math.max(wait, (1 - drequests) * day_ms / rpd) end
  found = reply(wait)
  if wait <= 0 then
    tokens = tokens - cost; requests = requests - 1; dtokens = dtokens - cost; drequests = drequests - 1
  end
elseif op == 'settle' then
  tokens = math.min(tpm, tokens + tonumber(ARGV[7]))
  if tpd > 0 then dtokens = math.min(tpd, dtokens + tonumber(ARGV[7])) end
end
if op == 'settle' and #ARGV > 8 then
  local new_tpm, left_tokens = tonumber(ARGV[8]), tonumber(ARGV[9])
  local new_rpm, left_requests = tonumber(ARGV[10]), tonumber(ARGV[11])
  local retry_ms = tonumber(ARGV[12])
  local min_plausible = tonumber(ARGV[13])
  local new_tpd, left_dtokens = tonumber(ARGV[14]), tonumber(ARGV[15])
  local new_rpd, left_drequests = tonumber(ARGV[16]), tonumber(ARGV[17])
  local day_retry_ms = tonumber(ARGV[18])
  local function align(ours, theirs, old_cap, new_cap)
    local v
    if theirs < 0 then v = ours + (new_cap - old_cap)
    elseif old_cap ~= new_cap then v = theirs
    else v = math.min(ours, theirs) end
    return math.min(new_cap, v)
  end
  if new_tpm < min_plausible then new_tpm = tpm end
  if new_rpm <= 0 then new_rpm = rpm end
  if new_tpd >= min_plausible then tpd_stated = true
  elseif not tpd_stated and new_tpm ~= tonumber(ARGV[3]) then new_tpd = -1
  else new_tpd = tpd end
  if new_rpd <= 0 then new_rpd = rpd end
  tokens = align(tokens, left_tokens, tpm, new_tpm)
  requests = align(requests, left_requests, rpm, new_rpm)
  if new_tpd > 0 then
    if tpd <= 0 then dtokens = new_tpd; tpd = new_tpd end
    dtokens = align(dtokens, left_dtokens, tpd, new_tpd)
  end
  if new_rpd > 0 then
    if rpd <= 0 then drequests = new_rpd; rpd = new_rpd end
    drequests = align(drequests, left_drequests, rpd, new_rpd)
  end
  tpm, rpm, tpd, rpd = new_tpm, new_rpm, new_tpd, new_rpd
  if retry_ms > 0 then blocked = math.max(blocked, now + retry_ms) end
  if day_retry_ms > 0 then dblocked = math.max(dblocked, now + day_retry_ms) end
end
if op == 'settle' or (op == 'take' and wait <= 0) then
  -- The day's lifetime is set again once a window at most: the state outlives its last write by a day less a window.
  local expires_set = tonumber(s[13])
  local refresh = not expires_set or now - expires_set >= window or now < expires_set
  local fields = {'tpm', tpm, 'rpm', rpm,
    'tokens', string.format('%.17g', tokens), 'requests', string.format('%.17g', requests),
    'at', string.format('%d', now), 'blocked', string.format('%d', blocked),
    'tpd', tpd, 'rpd', rpd, 'dtokens', string.format('%.17g', dtokens),
    'drequests', string.format('%.17g', drequests), 'dblocked', string.format('%d', dblocked),
    'tpd_stated', tpd_stated and '1' or '0'}
  if refresh then
    fields[#fields + 1] = 'expires_set'
    fields[#fields + 1] = string.format('%d', now)
  end
  redis.call('HSET', KEYS[1], unpack(fields))
  if refresh then redis.call('PEXPIRE', KEYS[1], day_ms) end
end
return found or reply(wait)
`;

type Reply = [number, number, number, number, number, number, number, number, number, number];

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
  const viewOf = (reply: Reply): BudgetView => {
    const [, tokens, tpm, rpm, blockedMs, dayTokens, tpd, dayRequests, rpd, dayBlockedMs] = reply;
    return {
      tokens,
      limits: {
        tokensPerWindow: tpm,
        requestsPerWindow: rpm,
        tokensPerDay: tpd > 0 ? tpd : undefined,
        requestsPerDay: rpd > 0 ? rpd : undefined,
      },
      blockedMs,
      windowMs: options.windowMs,
      dayTokens,
      dayRequests,
      dayBlockedMs,
    };
  };
  const key = `${connection.prefix}llm-budget:${options.key}`;
  const clock = redisClockOf(connection);
  let sha: Promise<string> | undefined;

  const run = async (op: string, figures: number[]): Promise<Reply> => {
    sha ??= sha1Hex(SCRIPT);
    const digest = await sha;
    const { limits } = options;
    const args = [
      op,
      options.windowMs,
      limits.tokensPerWindow,
      limits.requestsPerWindow,
      limits.tokensPerDay ?? -1,
      limits.requestsPerDay ?? -1,
      ...figures,
      await clock.now(),
    ];
    return await connection.run(async (client) => {
      try {
        return (await client.evalsha(digest, 1, key, ...args)) as Reply;
      } catch (error) {
        if (!(error instanceof Error) || !error.message.startsWith("NOSCRIPT")) throw error;
        return (await client.eval(SCRIPT, 1, key, ...args)) as Reply;
      }
    });
  };

  const settle = async (tokens: number, report?: LimitReport): Promise<BudgetView> => {
    if (tokens <= 0 && !report) return await peek();
    const reply = await run("settle", [tokens, ...(report ? figuresOf(report) : [])]).catch(() => undefined);
    if (!reply && tokens > 0) await fallback.give(tokens);
    // The fallback learns what the provider said either way: it is what an outage would start from.
    if (report) await fallback.observe(report);
    return reply ? viewOf(reply) : await fallback.peek();
  };
  const peek = async (): Promise<BudgetView> => {
    try {
      return await lookAtHash(connection, key, options.limits, options.windowMs, await clock.now());
    } catch {
      return await fallback.peek();
    }
  };

  return {
    async take(tokens, keep = 0) {
      try {
        return (await run("take", [tokens, keep]))[0];
      } catch {
        return await fallback.take(tokens, keep);
      }
    },
    async takeAndLook(tokens) {
      try {
        const found = await run("take", [tokens, 0]);
        return { wait: found[0], before: viewOf(found) };
      } catch {
        return await fallback.takeAndLook(tokens);
      }
    },
    give: async (tokens) => void await settle(tokens),
    observe: (report) => settle(0, report),
    peek,
    settle,
  };
}

/** The provider's report as the script's figures (-1: not stated; 0 ms: no retry-after). */
function figuresOf(report: LimitReport): number[] {
  const stated = (value: number | undefined) => value ?? -1;
  return [
    stated(report.tokenLimit),
    stated(report.tokensRemaining),
    stated(report.requestLimit),
    stated(report.requestsRemaining),
    report.retryAfterMs ?? 0,
    MIN_PLAUSIBLE_TOKEN_LIMIT,
    stated(report.dayTokenLimit),
    stated(report.dayTokensRemaining),
    stated(report.dayRequestLimit),
    stated(report.dayRequestsRemaining),
    report.dayRetryAfterMs ?? 0,
  ];
}

async function sha1Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-1", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}
