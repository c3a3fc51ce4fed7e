/** @module Usage in Redis, shared by every instance: holds and ledger entries as atomic Lua scripts. */
import type { UsageRow, UsageStore } from "../../domain/usage/meter.ts";
import type { RedisConnection } from "../redis/redis-connection.ts";
import { addField, emptyCounts, fieldsOf, KEEP_DAYS, KEEP_MONTHS, mergeEntries } from "./ledger-fields.ts";

/**
 * Drops one hold: its amounts out of the running totals (`held`: `<period>|min`, `<period>|req`), then the hold
 * and its end. Shared by both scripts; `holds`, `ends` and `held` are the key's three hold structures.
 */
const RELEASE = `
local function release(holds, ends, held, id)
  local value = redis.call('HGET', holds, id)
  if value then
    local d, m, hm, hr = string.match(value, '^([^|]*)|([^|]*)|(%d+)|(%d+)|')
    for _, total in ipairs({d .. '|min', m .. '|min', d .. '|req', m .. '|req'}) do
      local amount = string.sub(total, -3) == 'min' and tonumber(hm) or tonumber(hr)
      if amount > 0 and redis.call('HINCRBY', held, total, -amount) <= 0 then redis.call('HDEL', held, total) end
    end
    redis.call('HDEL', holds, id)
  end
  redis.call('ZREM', ends, id)
end
`;

/**
 * Checks every quota against what is answered (the period's ledger) plus what live holds hold (running totals, so
 * a check costs the same however many requests are in flight), and when every quota has room adds to the hold.
 * Every check first drops the key's expired holds. KEYS: holds (id -> `day|month|min|req|expires`), ends (a sorted
 * set of expiries), held (totals), day ledger, month ledger, day index, month index. ARGV: key id, hold id, now,
 * expires, day, month, minutes and requests to add, minutes and requests needed, then (period, unit, limit) per
 * quota. Returns {granted, when the key's other holds lapse (on a refusal), then used and held per quota...}.
 */
const HOLD = RELEASE + `
local now = tonumber(ARGV[3])
local add = {min = tonumber(ARGV[7]), req = tonumber(ARGV[8])}
local writes = add.min > 0 or add.req > 0
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now)) do release(KEYS[1], KEYS[2], KEYS[3], id) end
local ledger = {day = KEYS[4], month = KEYS[5]}
local period = {day = ARGV[5], month = ARGV[6]}
local field = {min = 'minutes', req = 'requests'}
local need = {min = tonumber(ARGV[9]), req = tonumber(ARGV[10])}
local reply = {1, 0}
for i = 11, #ARGV, 3 do
  local p, unit, limit = ARGV[i], ARGV[i + 1], tonumber(ARGV[i + 2])
  local held = tonumber(redis.call('HGET', KEYS[3], period[p] .. '|' .. unit) or '0')
  local used = tonumber(redis.call('HGET', ledger[p], field[unit]) or '0') + held
  reply[#reply + 1] = used
  reply[#reply + 1] = held
  if used + need[unit] > limit then reply[1] = 0 end
end
if reply[1] == 0 then
  local last = redis.call('ZREVRANGE', KEYS[2], 0, 1, 'WITHSCORES')
  for j = 1, #last, 2 do
    if last[j] ~= ARGV[2] then reply[2] = tonumber(last[j + 1]); break end
  end
end
if reply[1] == 1 and writes then
  local day, month, own_min, own_req, own_exp = period.day, period.month, 0, 0, 0
  local own = redis.call('HGET', KEYS[1], ARGV[2])
  if own then
    day, month, own_min, own_req, own_exp = string.match(own, '^([^|]*)|([^|]*)|(%d+)|(%d+)|(%d+)$')
  end
  local exp = math.max(tonumber(own_exp), tonumber(ARGV[4]))
  redis.call('HSET', KEYS[1], ARGV[2],
    string.format('%s|%s|%.0f|%.0f|%.0f', day, month, own_min + add.min, own_req + add.req, exp))
  redis.call('ZADD', KEYS[2], exp, ARGV[2])
  for _, p in ipairs({day, month}) do
    for unit, amount in pairs(add) do
      if amount > 0 then redis.call('HINCRBY', KEYS[3], p .. '|' .. unit, amount) end
    end
  end
  for i = 1, 3 do
    if redis.call('PTTL', KEYS[i]) < exp - now then redis.call('PEXPIRE', KEYS[i], exp - now + 1000) end
  end
  redis.call('SADD', KEYS[6], ARGV[1])
  redis.call('SADD', KEYS[7], ARGV[1])
end
return reply
`;

/**
 * Drops the entries' holds and adds their counts to both periods' ledgers, listing the key in each period's index.
 * KEYS: holds, ends, held, day ledger, month ledger, day index, month index. ARGV: key id, day and month lifetimes
 * (s), the number of holds, the hold ids, then field and value pairs.
 */
const WRITE = RELEASE + `
local holds = tonumber(ARGV[4])
for i = 5, 4 + holds do release(KEYS[1], KEYS[2], KEYS[3], ARGV[i]) end
if #ARGV > 4 + holds then
  for i = 5 + holds, #ARGV, 2 do
    redis.call('HINCRBY', KEYS[4], ARGV[i], ARGV[i + 1])
    redis.call('HINCRBY', KEYS[5], ARGV[i], ARGV[i + 1])
  end
  redis.call('SADD', KEYS[6], ARGV[1])
  redis.call('SADD', KEYS[7], ARGV[1])
  redis.call('EXPIRE', KEYS[4], ARGV[2])
  redis.call('EXPIRE', KEYS[6], ARGV[2])
  redis.call('EXPIRE', KEYS[5], ARGV[3])
  redis.call('EXPIRE', KEYS[7], ARGV[3])
end
return 1
`;

const DAY_SECONDS = 86_400;
/** Lifetimes of a day's and a month's counts, from their last write. */
const LIFETIMES = [(KEEP_DAYS + 1) * DAY_SECONDS, (KEEP_MONTHS + 1) * 31 * DAY_SECONDS];

/**
 * Usage in Redis, correct across instances: a hold is one script that
 * checks every quota and holds in the same step, so no two instances can
 * both spend the last unit. Keys (under the connection's prefix):
 * `usage:<period>:<key id>` (the counts, a hash), `usage-keys:<period>` (the
 * key ids with counts then), and per key what requests in flight hold:
 * `usage-holds:<key id>` (each hold), `usage-hold-ends:<key id>` (their
 * expiries) and `usage-held:<key id>` (their totals per period and unit).
 *
 * @param options.connection the shared Redis connection; its failures are thrown (the meter falls back)
 */
export function createRedisUsageStore(options: { connection: RedisConnection }): UsageStore {
  const { connection } = options;
  const p = connection.prefix;
  const ledger = (period: string, keyId: string) => `${p}usage:${period}:${keyId}`;
  const index = (period: string) => `${p}usage-keys:${period}`;
  const holds = (keyId: string) => `${p}usage-holds:${keyId}`;
  const holdKeys = (keyId: string) => [holds(keyId), `${p}usage-hold-ends:${keyId}`, `${p}usage-held:${keyId}`];
  return {
    async hold(r) {
      const { day, month } = r.periods;
      const keys = [...holdKeys(r.keyId), ledger(day, r.keyId), ledger(month, r.keyId), index(day), index(month)];
      const args = [r.keyId, r.holdId, r.now, r.expiresAt, day, month, r.amounts.min, r.amounts.req, r.need.min];
      args.push(r.need.req, ...r.quotas.flatMap((q) => [q.period, q.unit, q.limit]));
      const reply = await connection.run((c) => c.eval(HOLD, keys.length, ...keys, ...args)) as number[];
      const perQuota = reply.slice(2).map(Number);
      return {
        granted: reply[0] === 1,
        used: perQuota.filter((_, i) => i % 2 === 0),
        held: perQuota.filter((_, i) => i % 2 === 1),
        ...(reply[0] === 1 ? {} : { heldUntil: Number(reply[1]) }),
      };
    },
    async write(entries) {
      await Promise.all(
        mergeEntries(entries).map((entry) => {
          const { day, month } = entry.periods;
          const keys = [
            ...holdKeys(entry.keyId),
            ledger(day, entry.keyId),
            ledger(month, entry.keyId),
            index(day),
            index(month),
          ];
          const holdIds = entry.holds ?? [];
          const args = [entry.keyId, ...LIFETIMES, holdIds.length, ...holdIds];
          for (const [field, value] of fieldsOf(entry.counts)) args.push(field, value);
          return connection.run((c) => c.eval(WRITE, keys.length, ...keys, ...args));
        }),
      );
    },
    async read(periods, now) {
      const rows: UsageRow[] = [];
      for (const period of periods) {
        const ids = await connection.run((c) => c.smembers(index(period)));
        for (const keyId of ids.sort()) {
          const [fields, held] = await connection.run((c) =>
            Promise.all([c.hgetall(ledger(period, keyId)), c.hvals(holds(keyId))])
          );
          const row: UsageRow = { keyId, period, counts: emptyCounts(), held: { min: 0, req: 0 } };
          for (const [field, value] of Object.entries(fields)) addField(row.counts, field, Number(value));
          for (const hold of held) {
            const [d, m, minutes, requests, expires] = hold.split("|");
            if (Number(expires) <= now || (d !== period && m !== period)) continue;
            row.held.min += Number(minutes);
            row.held.req += Number(requests);
          }
          rows.push(row);
        }
      }
      return rows;
    },
    async close() {},
  };
}
