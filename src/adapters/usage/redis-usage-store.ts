/** @module Usage in Redis, shared by every instance: holds and ledger entries as atomic Lua scripts. */
import type { UsageRow, UsageStore } from "../../domain/usage/meter.ts";
import type { UsagePeriods } from "../../domain/usage/quota.ts";
import type { RedisClient, RedisConnection } from "../redis/redis-connection.ts";
import { addField, emptyCounts, fieldsOf, KEEP_DAYS, KEEP_MONTHS, mergeEntries } from "./ledger-fields.ts";

/**
 * Recounts a key's holds (called only when one may have lapsed, or to tell a refusal when the others lapse): drops
 * the lapsed ones and every running total, sets the totals of the live ones again, and the earliest expiry
 * (`=next`). Returns the totals, the request's own hold and the latest expiry among the others.
 */
const RECOUNT = `
local function recount(key, id, now)
  local all = redis.call('HGETALL', key)
  local totals, gone, own, next_at, last = {}, {'=next'}, nil, nil, 0
  for i = 1, #all, 2 do
    local f, v = all[i], all[i + 1]
    if string.find(f, '|', 1, true) then
      gone[#gone + 1] = f
    elseif string.sub(f, 1, 1) ~= '=' then
      local d, m, hm, hr, e = string.match(v, '^([^|]*)|([^|]*)|(%d+)|(%d+)|(%d+)$')
      e = tonumber(e)
      if e <= now then
        gone[#gone + 1] = f
      else
        for _, t in ipairs({{d .. '|min', hm}, {m .. '|min', hm}, {d .. '|req', hr}, {m .. '|req', hr}}) do
          local n = tonumber(t[2])
          if n > 0 then totals[t[1]] = (totals[t[1]] or 0) + n end
        end
        if not next_at or e < next_at then next_at = e end
        if f == id then own = v elseif e > last then last = e end
      end
    end
  end
  redis.call('HDEL', key, unpack(gone))
  local set = {}
  for f, n in pairs(totals) do set[#set + 1] = f; set[#set + 1] = n end
  if next_at then set[#set + 1] = '=next'; set[#set + 1] = string.format('%.0f', next_at) end
  if #set > 0 then redis.call('HSET', key, unpack(set)) end
  return totals, own, last, next_at
end
`;

/**
 * Checks every quota against what is answered (the period's ledger) plus what live holds hold, and when every quota
 * has room adds to the hold. A key's holds live in one hash (`inflight`): each hold by id
 * (`day|month|min|req|expires`), running totals per period and unit (`<period>|min`, `<period>|req`), and markers:
 * `=next` (no hold lapses before it: until then no hold is looked at one by one), `=ttl` (the hash's expiry, pushed
 * an hour past the latest hold) and `=idx` (the day of the key's last hold: the answered counts kept for older
 * periods go). So a granted hold is one read of that hash (and of each ledger a quota counts in, once a period) and
 * one write. A revoked key's hash says so (`=revoked`, see {@link markRevoked}): its hold is refused. KEYS (one slot
 * on a cluster: tagged by key id): inflight, day ledger, month ledger. ARGV: key id (for whoever reads MONITOR),
 * hold id, now, expires, day, month, minutes and requests to add, minutes and requests needed, then (period, unit,
 * limit) per quota. Returns {granted (-1: revoked), when the key's other holds lapse (on a refusal), then used and
 * held per quota...}.
 */
const HOLD = RECOUNT + `
local key, id, now, expires = KEYS[1], ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4])
local period = {day = ARGV[5], month = ARGV[6]}
local add = {min = tonumber(ARGV[7]), req = tonumber(ARGV[8])}
local need = {min = tonumber(ARGV[9]), req = tonumber(ARGV[10])}
local names = {'=next', '=ttl', '=idx', id}
for _, p in ipairs({period.day, period.month}) do
  names[#names + 1] = p .. '|min'
  names[#names + 1] = p .. '|req'
end
for _, p in ipairs({'day', 'month'}) do
  names[#names + 1] = '=a|' .. period[p] .. '|min'
  names[#names + 1] = '=a|' .. period[p] .. '|req'
end
names[#names + 1] = '=revoked'
local got = redis.call('HMGET', key, unpack(names))
if got[13] then return {-1, 0} end
local next_at, ttl_at, indexed, own = tonumber(got[1]), tonumber(got[2]) or 0, got[3], got[4]
local totals, last, recounted = {}, 0, false
for j = 5, 8 do totals[names[j]] = tonumber(got[j]) end
if next_at and next_at <= now then
  totals, own, last, next_at = recount(key, id, now)
  recounted = true
end
-- What is answered: kept in this hash once read from the ledger (the write behind adds to both).
local ledger, answered, seed = {day = KEYS[2], month = KEYS[3]}, {}, {}
local kept = {day = 9, month = 11}
for i = 11, #ARGV, 3 do
  local p = ARGV[i]
  if not answered[p] then
    local min, req = tonumber(got[kept[p]]), tonumber(got[kept[p] + 1])
    if not min or not req then
      local counts = redis.call('HMGET', ledger[p], 'minutes', 'requests')
      min, req = tonumber(counts[1]) or 0, tonumber(counts[2]) or 0
      seed[#seed + 1] = names[kept[p]]
      seed[#seed + 1] = min
      seed[#seed + 1] = names[kept[p] + 1]
      seed[#seed + 1] = req
    end
    answered[p] = {min = min, req = req}
  end
end
local function check()
  local reply = {1, 0}
  for i = 11, #ARGV, 3 do
    local p, unit, limit = ARGV[i], ARGV[i + 1], tonumber(ARGV[i + 2])
    local held = totals[period[p] .. '|' .. unit] or 0
    local used = answered[p][unit] + held
    reply[#reply + 1] = used
    reply[#reply + 1] = held
    if used + need[unit] > limit then reply[1] = 0 end
  end
  return reply
end
local reply = check()
if reply[1] == 0 and not recounted then
  totals, own, last, next_at = recount(key, id, now)
  reply = check()
end
if reply[1] == 0 then
  reply[2] = last
  return reply
end
if add.min == 0 and add.req == 0 then return reply end
local day, month, own_min, own_req, own_exp = period.day, period.month, 0, 0, 0
if own then day, month, own_min, own_req, own_exp = string.match(own, '^([^|]*)|([^|]*)|(%d+)|(%d+)|(%d+)$') end
local exp = math.max(tonumber(own_exp), expires)
local set = {id, string.format('%s|%s|%.0f|%.0f|%.0f', day, month, own_min + add.min, own_req + add.req, exp)}
for _, p in ipairs({day, month}) do
  for unit, amount in pairs(add) do
    local f = p .. '|' .. unit
    if amount > 0 then
      -- A hold begun before midnight counts in its own periods, whose totals were not read: added to in place.
      if totals[f] == nil and p ~= period.day and p ~= period.month then
        redis.call('HINCRBY', key, f, amount)
      else
        set[#set + 1] = f
        set[#set + 1] = (totals[f] or 0) + amount
      end
    end
  end
end
if not next_at or exp < next_at then
  set[#set + 1] = '=next'
  set[#set + 1] = string.format('%.0f', exp)
end
if exp > ttl_at then
  set[#set + 1] = '=ttl'
  set[#set + 1] = string.format('%.0f', exp + 3600000)
end
for _, v in ipairs(seed) do set[#set + 1] = v end
if indexed ~= period.day then
  set[#set + 1] = '=idx'
  set[#set + 1] = period.day
  -- Once a day: the answered counts kept for the last day holds were taken (and its month, once past) go.
  if indexed then
    local old = {'=a|' .. indexed .. '|min', '=a|' .. indexed .. '|req'}
    local old_month = string.sub(indexed, 1, 7)
    if old_month ~= period.month then
      old[#old + 1] = '=a|' .. old_month .. '|min'
      old[#old + 1] = '=a|' .. old_month .. '|req'
    end
    redis.call('HDEL', key, unpack(old))
  end
end
redis.call('HSET', key, unpack(set))
if exp > ttl_at then redis.call('PEXPIRE', key, exp + 3600000 - now) end
return reply
`;

/**
 * Drops the entries' holds (their amounts out of the running totals) and adds their counts to both periods'
 * ledgers; the answered requests and minutes kept in `inflight` for the holds (`=a|<period>|<unit>`, once a hold
 * has read them from the ledger) grow with the ledgers. KEYS (one slot, as {@link HOLD}'s): inflight, day ledger,
 * month ledger. ARGV: key id, day and month lifetimes (s), day, month, the number of holds, the hold ids, then
 * field and value pairs.
 */
const WRITE = `
local key, day, month, holds = KEYS[1], ARGV[4], ARGV[5], tonumber(ARGV[6])
local answered = {}
for i = 7 + holds, #ARGV, 2 do
  if ARGV[i] == 'minutes' then answered.min = tonumber(ARGV[i + 1]) end
  if ARGV[i] == 'requests' then answered.req = tonumber(ARGV[i + 1]) end
end
local names, more = {}, {}
for i = 7, 6 + holds do names[#names + 1] = ARGV[i] end
for unit, amount in pairs(answered) do
  for _, p in ipairs({day, month}) do
    names[#names + 1] = '=a|' .. p .. '|' .. unit
    more[#more + 1] = amount
  end
end
if #names > 0 then
  local got = redis.call('HMGET', key, unpack(names))
  local less, gone, set = {}, {}, {}
  for i = 1, holds do
    local v = got[i]
    if v then
      gone[#gone + 1] = names[i]
      local d, m, hm, hr = string.match(v, '^([^|]*)|([^|]*)|(%d+)|(%d+)|')
      for _, t in ipairs({{d .. '|min', hm}, {m .. '|min', hm}, {d .. '|req', hr}, {m .. '|req', hr}}) do
        local n = tonumber(t[2])
        if n > 0 then less[t[1]] = (less[t[1]] or 0) + n end
      end
    end
  end
  for i = holds + 1, #names do
    if got[i] then
      set[#set + 1] = names[i]
      set[#set + 1] = tonumber(got[i]) + more[i - holds]
    end
  end
  local fields = {}
  for f in pairs(less) do fields[#fields + 1] = f end
  if #fields > 0 then
    local totals = redis.call('HMGET', key, unpack(fields))
    for i, f in ipairs(fields) do
      local left = (tonumber(totals[i]) or 0) - less[f]
      if left > 0 then set[#set + 1] = f; set[#set + 1] = left else gone[#gone + 1] = f end
    end
  end
  if #set > 0 then redis.call('HSET', key, unpack(set)) end
  if #gone > 0 then redis.call('HDEL', key, unpack(gone)) end
end
if #ARGV > 6 + holds then
  for i = 7 + holds, #ARGV, 2 do
    redis.call('HINCRBY', KEYS[2], ARGV[i], ARGV[i + 1])
    redis.call('HINCRBY', KEYS[3], ARGV[i], ARGV[i + 1])
  end
  redis.call('EXPIRE', KEYS[2], ARGV[2])
  redis.call('EXPIRE', KEYS[3], ARGV[3])
end
return 1
`;

/** Marks a key's holds revoked for a day at least: far longer than an instance remembers a key it verified. */
const REVOKE = "redis.call('HSET', KEYS[1], '=revoked', 1) " +
  "if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[1]) then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end return 1";
const REVOKED_FOR_MS = 86_400_000;

/**
 * Refuses every later hold of a revoked key (`keys revoke` calls it before deleting the key): an instance that
 * remembers having verified the key a moment ago learns of the revocation from its next hold.
 */
export async function markRevoked(connection: RedisConnection, keyId: string): Promise<void> {
  await connection.run((c) => c.eval(REVOKE, 1, inflightKey(connection, keyId), REVOKED_FOR_MS));
}

/** The hash of a key's holds (see {@link HOLD}), tagged by its id on a cluster. */
function inflightKey(connection: RedisConnection, keyId: string): string {
  return `${connection.prefix}usage-inflight:${connection.tag(keyId)}`;
}

/** A client with the scripts defined: each sent as EVALSHA (EVAL once per connection, and after a SCRIPT FLUSH). */
type Scripted = RedisClient & {
  usageHold(keys: number, ...args: (string | number)[]): Promise<number[]>;
  usageWrite(keys: number, ...args: (string | number)[]): Promise<number>;
};
const defined = new WeakSet<RedisClient>();
function scripted(client: RedisClient): Scripted {
  if (!defined.has(client)) {
    client.defineCommand("usageHold", { lua: HOLD });
    client.defineCommand("usageWrite", { lua: WRITE });
    defined.add(client);
  }
  return client as Scripted;
}

/**
 * Lists keys in the periods' indexes (`usage-keys:<period>`, read by the usage report) outside the scripts, whose
 * keys must share one slot on a cluster: once per key and day in this process, after a granted hold or a write. A
 * failure here never fails them.
 */
class PeriodIndexes {
  readonly #connection: RedisConnection;
  readonly #index: (period: string) => string;
  #day = "";
  readonly #done = new Set<string>();

  constructor(connection: RedisConnection, index: (period: string) => string) {
    this.#connection = connection;
    this.#index = index;
  }

  async list(keyId: string, periods: UsagePeriods): Promise<void> {
    if (periods.day !== this.#day) {
      this.#day = periods.day;
      this.#done.clear();
    }
    if (this.#done.has(keyId)) return;
    const [day, month] = [this.#index(periods.day), this.#index(periods.month)];
    try {
      await this.#connection.run((c) =>
        Promise.all([
          c.sadd(day, keyId),
          c.expire(day, LIFETIMES[0]!),
          c.sadd(month, keyId),
          c.expire(month, LIFETIMES[1]!),
        ])
      );
      this.#done.add(keyId);
    } catch {
      // The hold or the write it follows stands (a retry would count it twice): the next one lists the key.
    }
  }
}

const DAY_SECONDS = 86_400;
/** Lifetimes of a day's and a month's counts, from their last write. */
const LIFETIMES = [(KEEP_DAYS + 1) * DAY_SECONDS, (KEEP_MONTHS + 1) * 31 * DAY_SECONDS];

/**
 * Usage in Redis, correct across instances: a hold is one script that
 * checks every quota and holds in the same step, so no two instances can
 * both spend the last unit. Keys (under the connection's prefix):
 * `usage:<period>:<key id>` (the counts, a hash), `usage-keys:<period>` (the
 * key ids with counts then), and per key what requests in flight hold:
 * `usage-inflight:<key id>` (each hold, their totals per period and unit,
 * and the markers {@link HOLD} describes). On a Redis Cluster the key id is
 * a hash tag (`{key_…}`): a key's scripts run on one node. A granted hold
 * costs EVALSHA, HMGET and HSET; the write behind, a few per key a second;
 * the periods' indexes, a few commands per key once a day.
 *
 * @param options.connection the shared Redis connection; its failures are thrown (the meter falls back)
 */
export function createRedisUsageStore(options: { connection: RedisConnection }): UsageStore {
  const { connection } = options;
  const p = connection.prefix;
  const ledger = (period: string, keyId: string) => `${p}usage:${period}:${connection.tag(keyId)}`;
  const index = (period: string) => `${p}usage-keys:${period}`;
  const inflight = (keyId: string) => inflightKey(connection, keyId);
  const listed = new PeriodIndexes(connection, index);
  return {
    async hold(r) {
      const { day, month } = r.periods;
      const keys = [inflight(r.keyId), ledger(day, r.keyId), ledger(month, r.keyId)];
      const args = [r.keyId, r.holdId, r.now, r.expiresAt, day, month, r.amounts.min, r.amounts.req, r.need.min];
      args.push(r.need.req, ...r.quotas.flatMap((q) => [q.period, q.unit, q.limit]));
      const reply = await connection.run((c) => scripted(c).usageHold(keys.length, ...keys, ...args)) as number[];
      if (reply[0] === 1) await listed.list(r.keyId, r.periods);
      if (reply[0] === -1) return { granted: false, used: r.quotas.map(() => 0), revoked: true };
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
          const keys = [inflight(entry.keyId), ledger(day, entry.keyId), ledger(month, entry.keyId)];
          const holdIds = entry.holds ?? [];
          const args = [entry.keyId, ...LIFETIMES, day, month, holdIds.length, ...holdIds];
          const fields = fieldsOf(entry.counts);
          for (const [field, value] of fields) args.push(field, value);
          const written = connection.run((c) => scripted(c).usageWrite(keys.length, ...keys, ...args));
          return fields.length > 0 ? written.then(() => listed.list(entry.keyId, entry.periods)) : written;
        }),
      );
    },
    async read(periods, now) {
      const rows: UsageRow[] = [];
      for (const period of periods) {
        const ids = await connection.run((c) => c.smembers(index(period)));
        for (const keyId of ids.sort()) {
          const [fields, held] = await connection.run((c) =>
            Promise.all([c.hgetall(ledger(period, keyId)), c.hgetall(inflight(keyId))])
          );
          const row: UsageRow = { keyId, period, counts: emptyCounts(), held: { min: 0, req: 0 } };
          for (const [field, value] of Object.entries(fields)) addField(row.counts, field, Number(value));
          for (const [id, hold] of Object.entries(held)) {
            if (id.startsWith("=") || id.includes("|")) continue; // a total or a marker, not a hold
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
