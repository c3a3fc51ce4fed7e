/** @module Usage in Redis, shared by every instance: holds and ledger entries as atomic Lua scripts. */
import type { UsageRow, UsageStore } from "../../domain/usage.ts";
import type { RedisConnection } from "../redis/redis-connection.ts";
import { addField, emptyCounts, fieldsOf, KEEP_DAYS, KEEP_MONTHS, mergeEntries } from "./ledger-fields.ts";

/**
 * Checks every quota against what is answered (the period's ledger hash) plus the live holds (one hash per key:
 * hold id -> `day|month|minutes|requests|expires`), drops the expired holds, and when every quota has room adds
 * to the hold. KEYS: holds, day ledger, month ledger, day index, month index. ARGV: key id, hold id, now, expires,
 * day, month, minutes and requests to add, minutes and requests needed, then (period, unit, limit) per quota.
 * Returns {granted, used per quota...}.
 */
const HOLD = `
local now = tonumber(ARGV[3])
local day, month = ARGV[5], ARGV[6]
local held = {day = {min = 0, req = 0}, month = {min = 0, req = 0}}
local own_min, own_req, own_exp = 0, 0, 0
local holds = redis.call('HGETALL', KEYS[1])
for i = 1, #holds, 2 do
  local d, m, hm, hr, exp = string.match(holds[i + 1], '^([^|]*)|([^|]*)|(%d+)|(%d+)|(%d+)$')
  if exp == nil or tonumber(exp) <= now then
    redis.call('HDEL', KEYS[1], holds[i])
  else
    hm, hr = tonumber(hm), tonumber(hr)
    if d == day then held.day.min = held.day.min + hm; held.day.req = held.day.req + hr end
    if m == month then held.month.min = held.month.min + hm; held.month.req = held.month.req + hr end
    if holds[i] == ARGV[2] then own_min, own_req, own_exp = hm, hr, tonumber(exp) end
  end
end
local ledger = {day = KEYS[2], month = KEYS[3]}
local field = {min = 'minutes', req = 'requests'}
local need = {min = tonumber(ARGV[9]), req = tonumber(ARGV[10])}
local reply = {1}
for i = 11, #ARGV, 3 do
  local period, unit, limit = ARGV[i], ARGV[i + 1], tonumber(ARGV[i + 2])
  local used = tonumber(redis.call('HGET', ledger[period], field[unit]) or '0') + held[period][unit]
  reply[#reply + 1] = used
  if used + need[unit] > limit then reply[1] = 0 end
end
local add_min, add_req = tonumber(ARGV[7]), tonumber(ARGV[8])
if reply[1] == 1 and (add_min > 0 or add_req > 0) then
  local exp = math.max(own_exp, tonumber(ARGV[4]))
  local value = string.format('%s|%s|%.0f|%.0f|%.0f', day, month, own_min + add_min, own_req + add_req, exp)
  redis.call('HSET', KEYS[1], ARGV[2], value)
  if redis.call('PTTL', KEYS[1]) < exp - now then redis.call('PEXPIRE', KEYS[1], exp - now + 1000) end
  redis.call('SADD', KEYS[4], ARGV[1])
  redis.call('SADD', KEYS[5], ARGV[1])
end
return reply
`;

/**
 * Drops the entries' holds and adds their counts to both periods' ledgers, listing the key in each period's index.
 * KEYS: day ledger, month ledger, holds, day index, month index. ARGV: key id, day and month lifetimes (s), the
 * number of holds, the hold ids, then field and value pairs.
 */
const WRITE = `
local holds = tonumber(ARGV[4])
for i = 5, 4 + holds do redis.call('HDEL', KEYS[3], ARGV[i]) end
if #ARGV > 4 + holds then
  for i = 5 + holds, #ARGV, 2 do
    redis.call('HINCRBY', KEYS[1], ARGV[i], ARGV[i + 1])
    redis.call('HINCRBY', KEYS[2], ARGV[i], ARGV[i + 1])
  end
  redis.call('SADD', KEYS[4], ARGV[1])
  redis.call('SADD', KEYS[5], ARGV[1])
  redis.call('EXPIRE', KEYS[1], ARGV[2])
  redis.call('EXPIRE', KEYS[4], ARGV[2])
  redis.call('EXPIRE', KEYS[2], ARGV[3])
  redis.call('EXPIRE', KEYS[5], ARGV[3])
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
 * key ids with counts then), `usage-holds:<key id>` (holds in flight).
 *
 * @param options.connection the shared Redis connection; its failures are thrown (the meter falls back)
 */
export function createRedisUsageStore(options: { connection: RedisConnection }): UsageStore {
  const { connection } = options;
  const p = connection.prefix;
  const ledger = (period: string, keyId: string) => `${p}usage:${period}:${keyId}`;
  const index = (period: string) => `${p}usage-keys:${period}`;
  const holds = (keyId: string) => `${p}usage-holds:${keyId}`;
  return {
    async hold(r) {
      const { day, month } = r.periods;
      const keys = [holds(r.keyId), ledger(day, r.keyId), ledger(month, r.keyId), index(day), index(month)];
      const args = [r.keyId, r.holdId, r.now, r.expiresAt, day, month, r.amounts.min, r.amounts.req, r.need.min];
      args.push(r.need.req, ...r.quotas.flatMap((q) => [q.period, q.unit, q.limit]));
      const reply = await connection.run((c) => c.eval(HOLD, keys.length, ...keys, ...args)) as number[];
      return { granted: reply[0] === 1, used: reply.slice(1).map(Number) };
    },
    async write(entries) {
      await Promise.all(
        mergeEntries(entries).map((entry) => {
          const { day, month } = entry.periods;
          const keys = [
            ledger(day, entry.keyId),
            ledger(month, entry.keyId),
            holds(entry.keyId),
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
