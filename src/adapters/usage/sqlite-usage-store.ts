/** @module Usage in an SQLite file beside the keys file (`node:sqlite`, on Bun, the binary and Deno alike). */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { setImmediate } from "node:timers";
import { DatabaseSync, type StatementSync } from "node:sqlite";
import type { HoldRequest, HoldResult, LedgerEntry, UsageRow, UsageStore } from "../../domain/usage/meter.ts";
import { addField, emptyCounts, fieldsOf, KEEP_DAYS, KEEP_MONTHS, mergeEntries, UNIT_FIELD } from "./ledger-fields.ts";

/**
 * `usage`: the ledger, one row per key, period and count. `holds`: what requests in flight hold, until their entry
 * replaces it or it expires. `held`: the live holds summed per key and period, so a check reads two rows per quota
 * however many requests are in flight.
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS usage (
  key_id TEXT NOT NULL, period TEXT NOT NULL, field TEXT NOT NULL, value INTEGER NOT NULL,
  PRIMARY KEY (key_id, period, field)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS holds (
  key_id TEXT NOT NULL, hold_id TEXT NOT NULL, day TEXT NOT NULL, month TEXT NOT NULL,
  min INTEGER NOT NULL, req INTEGER NOT NULL, expires_at INTEGER NOT NULL,
  PRIMARY KEY (key_id, hold_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS holds_by_expiry ON holds (key_id, expires_at);
CREATE TABLE IF NOT EXISTS held (
  key_id TEXT NOT NULL, period TEXT NOT NULL, min INTEGER NOT NULL, req INTEGER NOT NULL,
  PRIMARY KEY (key_id, period)
) WITHOUT ROWID;`;

/** How long a process waits for another's write to the file (each takes well under a millisecond). */
const BUSY_TIMEOUT_MS = 5_000;

/**
 * Turns on the write-ahead log and creates the tables. Switching the journal mode takes the file for itself and
 * does not wait on SQLite's busy timeout: two processes opening a new file at once would see "database is locked"
 * (and count quotas on what each knows alone), so the set-up is tried again, a few milliseconds apart.
 */
function setUp(db: DatabaseSync): void {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (const until = Date.now() + BUSY_TIMEOUT_MS;;) {
    try {
      db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;");
      db.exec(SCHEMA);
      return;
    } catch (error) {
      if (!/locked|busy/i.test(String(error)) || Date.now() > until) throw error;
      Atomics.wait(pause, 0, 0, 2 + Math.random() * 8);
    }
  }
}

type Hold = { hold_id: string; day: string; month: string; min: number; req: number };

/**
 * Usage in an SQLite database file, shared safely by every process on the
 * machine: the write-ahead log lets readers and one writer work at once, and
 * each hold or batch of entries is one `BEGIN IMMEDIATE` transaction, so no two
 * processes can both take the last minute of a quota. The file (and its
 * `-wal` and `-shm` companions) is created on first use, with its folder.
 *
 * @param options.path the database file (`usage.sqlite` beside `KEYS_FILE`)
 * @param options.now clock (ms since the epoch), for dropping counts older than they are kept
 */
export function createSqliteUsageStore(options: { path: string; now?: () => number }): UsageStore {
  let opened: { db: DatabaseSync; sql: ReturnType<typeof statements> } | undefined;
  const open = () => {
    if (opened) return opened;
    mkdirSync(dirname(options.path), { recursive: true });
    const db = new DatabaseSync(options.path, { timeout: BUSY_TIMEOUT_MS });
    try {
      setUp(db);
      const now = (options.now ?? Date.now)();
      prune(db, now);
      const sql = statements(db);
      dropExpiredHolds(db, sql, now);
      return opened = { db, sql };
    } catch (error) {
      db.close();
      throw error;
    }
  };
  /** A change, with its checks, as one write transaction; a look that holds nothing needs none. */
  const inTransaction = <T>(work: (sql: ReturnType<typeof statements>) => T, writes = true): T => {
    const { db, sql } = open();
    if (!writes) return work(sql);
    db.exec("BEGIN IMMEDIATE");
    try {
      const result = work(sql);
      db.exec("COMMIT");
      return result;
    } catch (error) {
      if (db.isTransaction) db.exec("ROLLBACK");
      throw error;
    }
  };
  // Holds asked in one turn of the event loop share one transaction (one commit): each is still decided alone,
  // in order, and no other process writes in between, so quotas stay exact across processes.
  let batch: { request: HoldRequest; resolve: (result: HoldResult) => void; reject: (error: unknown) => void }[] = [];
  const commitBatch = (): void => {
    const waiting = batch;
    batch = [];
    if (waiting.length === 0) return;
    let results: HoldResult[];
    try {
      results = inTransaction((sql) => waiting.map(({ request }) => hold(sql, request)));
    } catch (error) {
      for (const { reject } of waiting) reject(error);
      return;
    }
    waiting.forEach(({ resolve }, i) => resolve(results[i]!));
  };
  return {
    async hold(request) {
      const { min, req } = request.amounts;
      // A check that holds nothing writes only when a hold of the key has lapsed (its process died): it drops it.
      const writes = min > 0 || req > 0 || open().sql.anyExpired.get(request.keyId, request.now) !== undefined;
      if (!writes) return inTransaction((sql) => hold(sql, request), false);
      return await new Promise<HoldResult>((resolve, reject) => {
        if (batch.length === 0) setImmediate(commitBatch);
        batch.push({ request, resolve, reject });
      });
    },
    async write(entries) {
      const merged = mergeEntries(entries);
      if (merged.length > 0) inTransaction((sql) => merged.forEach((entry) => write(sql, entry)));
    },
    async read(periods, now) {
      return read(open().db, periods, now);
    },
    async close() {
      if (batch.length > 0) commitBatch();
      opened?.db.close();
      opened = undefined;
    },
  };
}

/** The statements every hold and write runs, prepared once per open file. */
function statements(db: DatabaseSync) {
  const prepare = (sql: string): StatementSync => db.prepare(sql);
  return {
    expired: prepare("SELECT hold_id, day, month, min, req FROM holds WHERE key_id = ? AND expires_at <= ?"),
    anyExpired: prepare("SELECT 1 FROM holds WHERE key_id = ? AND expires_at <= ? LIMIT 1"),
    heldUntil: prepare("SELECT MAX(expires_at) AS until FROM holds WHERE key_id = ? AND hold_id != ?"),
    holdOf: prepare("SELECT hold_id, day, month, min, req FROM holds WHERE key_id = ? AND hold_id = ?"),
    dropHold: prepare("DELETE FROM holds WHERE key_id = ? AND hold_id = ?"),
    heldBy: prepare(
      `SELECT day, month, SUM(min) AS min, SUM(req) AS req FROM holds
         WHERE key_id = ? AND hold_id IN (SELECT value FROM json_each(?)) GROUP BY day, month`,
    ),
    dropHolds: prepare("DELETE FROM holds WHERE key_id = ? AND hold_id IN (SELECT value FROM json_each(?))"),
    putHold: prepare(
      `INSERT INTO holds VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (key_id, hold_id) DO UPDATE SET
         min = min + excluded.min, req = req + excluded.req, expires_at = MAX(expires_at, excluded.expires_at)`,
    ),
    addHeld: prepare(
      `INSERT INTO held VALUES (?, ?, ?, ?) ON CONFLICT (key_id, period) DO UPDATE SET
         min = MAX(0, min + excluded.min), req = MAX(0, req + excluded.req)`,
    ),
    held: prepare("SELECT min, req FROM held WHERE key_id = ? AND period = ?"),
    count: prepare("SELECT value FROM usage WHERE key_id = ? AND period = ? AND field = ?"),
    add: prepare(
      `INSERT INTO usage VALUES (?, ?, ?, ?)
         ON CONFLICT (key_id, period, field) DO UPDATE SET value = value + excluded.value`,
    ),
  };
}

type Statements = ReturnType<typeof statements>;

function hold(sql: Statements, request: HoldRequest): HoldResult {
  const { keyId, periods, amounts } = request;
  const holds = amounts.min > 0 || amounts.req > 0;
  // Every check drops the key's expired holds (a process that died left them), so they never count.
  for (const expired of sql.expired.all(keyId, request.now) as Hold[]) drop(sql, keyId, expired);
  const held = request.quotas.map((quota) => {
    const totals = sql.held.get(keyId, periods[quota.period]) as { min: number; req: number } | undefined;
    return totals?.[quota.unit] ?? 0;
  });
  const used = request.quotas.map((quota, i) => {
    const answered = sql.count.get(keyId, periods[quota.period], UNIT_FIELD[quota.unit]) as
      | { value: number }
      | undefined;
    return held[i]! + (answered?.value ?? 0);
  });
  const granted = request.quotas.every((quota, i) => used[i]! + request.need[quota.unit] <= quota.limit);
  if (!granted) {
    const until = (sql.heldUntil.get(keyId, request.holdId) as { until: number | null }).until ?? 0;
    return { granted, used, held, heldUntil: until };
  }
  if (holds) {
    const existing = sql.holdOf.get(keyId, request.holdId) as Hold | undefined;
    const { day, month } = existing ?? periods;
    sql.putHold.run(keyId, request.holdId, day, month, amounts.min, amounts.req, request.expiresAt);
    for (const period of [day, month]) sql.addHeld.run(keyId, period, amounts.min, amounts.req);
  }
  return { granted, used, held };
}

/** Drops a hold and takes its amounts out of the live totals. */
function drop(sql: Statements, keyId: string, hold: Hold): void {
  sql.dropHold.run(keyId, hold.hold_id);
  for (const period of [hold.day, hold.month]) sql.addHeld.run(keyId, period, -hold.min, -hold.req);
}

function write(sql: Statements, entry: LedgerEntry): void {
  for (const [field, value] of fieldsOf(entry.counts)) {
    sql.add.run(entry.keyId, entry.periods.day, field, value);
    sql.add.run(entry.keyId, entry.periods.month, field, value);
  }
  if (!entry.holds?.length) return;
  // All of an entry's holds (a second's answers of one key) leave in two statements, not four per hold.
  const ids = JSON.stringify(entry.holds);
  for (const group of sql.heldBy.all(entry.keyId, ids) as { day: string; month: string; min: number; req: number }[]) {
    for (const period of [group.day, group.month]) sql.addHeld.run(entry.keyId, period, -group.min, -group.req);
  }
  sql.dropHolds.run(entry.keyId, ids);
}

function read(db: DatabaseSync, periods: readonly string[], now: number): UsageRow[] {
  const rows = new Map<string, UsageRow>();
  const rowOf = (keyId: string, period: string): UsageRow => {
    const id = JSON.stringify([keyId, period]);
    let row = rows.get(id);
    if (!row) rows.set(id, row = { keyId, period, counts: emptyCounts(), held: { min: 0, req: 0 } });
    return row;
  };
  const marks = periods.map(() => "?").join(", ");
  const fields = db.prepare(`SELECT key_id, period, field, value FROM usage WHERE period IN (${marks})`)
    .all(...periods) as { key_id: string; period: string; field: string; value: number }[];
  for (const f of fields) addField(rowOf(f.key_id, f.period).counts, f.field, f.value);
  const holds = db.prepare("SELECT key_id, day, month, min, req FROM holds WHERE expires_at > ?")
    .all(now) as (Hold & { key_id: string })[];
  for (const h of holds) {
    for (const period of [h.day, h.month].filter((p) => periods.includes(p))) {
      const { held } = rowOf(h.key_id, period);
      held.min += h.min;
      held.req += h.req;
    }
  }
  return [...rows.values()];
}

/** Drops the counts of days and months older than they are kept (once, when the file is opened). */
function prune(db: DatabaseSync, now: number): void {
  const day = new Date(now - KEEP_DAYS * 86_400_000).toISOString().slice(0, 10);
  const at = new Date(now);
  const month = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() - KEEP_MONTHS, 1)).toISOString().slice(0, 7);
  const old = "(length(period) = 10 AND period < ?) OR (length(period) = 7 AND period < ?)";
  db.prepare(`DELETE FROM usage WHERE ${old}`).run(day, month);
  db.prepare(`DELETE FROM held WHERE (${old}) OR (min = 0 AND req = 0)`).run(day, month);
}

/** Drops every key's expired holds (a process that died left them), once, when the file is opened. */
function dropExpiredHolds(db: DatabaseSync, sql: Statements, now: number): void {
  const expired = db.prepare("SELECT key_id, hold_id, day, month, min, req FROM holds WHERE expires_at <= ?")
    .all(now) as (Hold & { key_id: string })[];
  if (expired.length === 0) return;
  db.exec("BEGIN IMMEDIATE");
  try {
    for (const hold of expired) if (sql.holdOf.get(hold.key_id, hold.hold_id)) drop(sql, hold.key_id, hold);
    db.exec("COMMIT");
  } catch (error) {
    if (db.isTransaction) db.exec("ROLLBACK");
    throw error;
  }
}
