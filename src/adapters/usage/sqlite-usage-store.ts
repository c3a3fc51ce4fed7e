/** @module Usage in an SQLite file beside the keys file (`node:sqlite`, on Bun, the binary and Deno alike). */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { DatabaseSync } from "node:sqlite";
import type { HoldRequest, HoldResult, LedgerEntry, UsageRow, UsageStore } from "../../domain/usage.ts";
import { addField, emptyCounts, fieldsOf, KEEP_DAYS, KEEP_MONTHS, mergeEntries, UNIT_FIELD } from "./ledger-fields.ts";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS usage (
  key_id TEXT NOT NULL, period TEXT NOT NULL, field TEXT NOT NULL, value INTEGER NOT NULL,
  PRIMARY KEY (key_id, period, field)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS holds (
  key_id TEXT NOT NULL, hold_id TEXT NOT NULL, day TEXT NOT NULL, month TEXT NOT NULL,
  minutes INTEGER NOT NULL, requests INTEGER NOT NULL, expires_at INTEGER NOT NULL,
  PRIMARY KEY (key_id, hold_id)
) WITHOUT ROWID;`;

/** How long a process waits for another's write to the file (each takes well under a millisecond). */
const BUSY_TIMEOUT_MS = 5_000;

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
  let db: DatabaseSync | undefined;
  const open = (): DatabaseSync => {
    if (db) return db;
    mkdirSync(dirname(options.path), { recursive: true });
    const opened = new DatabaseSync(options.path, { timeout: BUSY_TIMEOUT_MS });
    try {
      opened.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;");
      opened.exec(SCHEMA);
      prune(opened, (options.now ?? Date.now)());
    } catch (error) {
      opened.close();
      throw error;
    }
    return db = opened;
  };
  const inTransaction = <T>(work: (db: DatabaseSync) => T): T => {
    const database = open();
    database.exec("BEGIN IMMEDIATE");
    try {
      const result = work(database);
      database.exec("COMMIT");
      return result;
    } catch (error) {
      if (database.isTransaction) database.exec("ROLLBACK");
      throw error;
    }
  };
  return {
    async hold(request) {
      return inTransaction((database) => hold(database, request));
    },
    async write(entries) {
      const merged = mergeEntries(entries);
      if (merged.length > 0) inTransaction((database) => merged.forEach((entry) => write(database, entry)));
    },
    async read(periods, now) {
      return read(open(), periods, now);
    },
    async close() {
      db?.close();
      db = undefined;
    },
  };
}

function hold(db: DatabaseSync, request: HoldRequest): HoldResult {
  const { keyId, periods, amounts } = request;
  db.prepare("DELETE FROM holds WHERE key_id = ? AND expires_at <= ?").run(keyId, request.now);
  const used = request.quotas.map((quota) => {
    const period = periods[quota.period];
    const column = quota.unit === "min" ? "minutes" : "requests";
    const held = db.prepare(
      `SELECT COALESCE(SUM(${column}), 0) AS n FROM holds WHERE key_id = ? AND ${quota.period} = ?`,
    )
      .get(keyId, period) as { n: number };
    const answered = db.prepare("SELECT value FROM usage WHERE key_id = ? AND period = ? AND field = ?")
      .get(keyId, period, UNIT_FIELD[quota.unit]) as { value: number } | undefined;
    return held.n + (answered?.value ?? 0);
  });
  const granted = request.quotas.every((quota, i) => used[i]! + request.need[quota.unit] <= quota.limit);
  if (granted && (amounts.min > 0 || amounts.req > 0)) {
    db.prepare(
      `INSERT INTO holds VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (key_id, hold_id) DO UPDATE SET
         minutes = minutes + excluded.minutes, requests = requests + excluded.requests,
         expires_at = MAX(expires_at, excluded.expires_at)`,
    ).run(keyId, request.holdId, periods.day, periods.month, amounts.min, amounts.req, request.expiresAt);
  }
  return { granted, used };
}

function write(db: DatabaseSync, entry: LedgerEntry): void {
  const add = db.prepare(
    `INSERT INTO usage VALUES (?, ?, ?, ?)
       ON CONFLICT (key_id, period, field) DO UPDATE SET value = value + excluded.value`,
  );
  for (const [field, value] of fieldsOf(entry.counts)) {
    add.run(entry.keyId, entry.periods.day, field, value);
    add.run(entry.keyId, entry.periods.month, field, value);
  }
  const drop = db.prepare("DELETE FROM holds WHERE key_id = ? AND hold_id = ?");
  for (const hold of entry.holds ?? []) drop.run(entry.keyId, hold);
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
  const holds = db.prepare("SELECT key_id, day, month, minutes, requests FROM holds WHERE expires_at > ?")
    .all(now) as { key_id: string; day: string; month: string; minutes: number; requests: number }[];
  for (const h of holds) {
    for (const period of [h.day, h.month].filter((p) => periods.includes(p))) {
      const { held } = rowOf(h.key_id, period);
      held.min += h.minutes;
      held.req += h.requests;
    }
  }
  return [...rows.values()];
}

/** Drops the counts of days and months older than they are kept (once, when the file is opened). */
function prune(db: DatabaseSync, now: number): void {
  const day = new Date(now - KEEP_DAYS * 86_400_000).toISOString().slice(0, 10);
  const at = new Date(now);
  const month = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() - KEEP_MONTHS, 1)).toISOString().slice(0, 7);
  db.prepare("DELETE FROM usage WHERE (length(period) = 10 AND period < ?) OR (length(period) = 7 AND period < ?)")
    .run(day, month);
}
