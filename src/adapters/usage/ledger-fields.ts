/** @module A ledger's counts as named integer fields, the one layout both usage stores keep them in. */
import type { LedgerEntry, UsageCounts } from "../../domain/usage/meter.ts";

/** The stored name of each count; refusals are `refused:<code>`. */
const FIELDS = {
  requests: "requests",
  cacheHits: "cache_hits",
  minutes: "minutes",
  inputTokens: "input_tokens",
  outputTokens: "output_tokens",
  sttSeconds: "stt_seconds",
} as const satisfies Record<Exclude<keyof UsageCounts, "refused">, string>;

const REFUSED = "refused:";

/** The field a quota's unit is counted in. */
export const UNIT_FIELD = { min: FIELDS.minutes, req: FIELDS.requests } as const;

/** @returns counts of nothing */
export function emptyCounts(): UsageCounts {
  return { requests: 0, cacheHits: 0, minutes: 0, inputTokens: 0, outputTokens: 0, sttSeconds: 0, refused: {} };
}

/** @returns the counts as stored fields, leaving out zeros (whole numbers only) */
export function fieldsOf(counts: Partial<UsageCounts>): [string, number][] {
  const fields: [string, number][] = [];
  for (const [name, field] of Object.entries(FIELDS)) {
    const value = Math.round(counts[name as keyof typeof FIELDS] ?? 0);
    if (value > 0) fields.push([field, value]);
  }
  for (const [code, value] of Object.entries(counts.refused ?? {})) {
    if (value > 0) fields.push([REFUSED + code, Math.round(value)]);
  }
  return fields;
}

/** Adds a stored field's value to `counts` (an unknown field is ignored: a newer version may write more). */
export function addField(counts: UsageCounts, field: string, value: number): void {
  if (field.startsWith(REFUSED)) {
    const code = field.slice(REFUSED.length);
    counts.refused[code] = (counts.refused[code] ?? 0) + value;
    return;
  }
  const name = (Object.keys(FIELDS) as (keyof typeof FIELDS)[]).find((key) => FIELDS[key] === field);
  if (name) counts[name] += value;
}

const NAMES = Object.keys(FIELDS) as (keyof typeof FIELDS)[];

/** Adds `more` into `into` (merging the entries of one key and period before they are written). */
export function addCounts(into: Partial<UsageCounts>, more: Partial<UsageCounts>): void {
  for (const name of NAMES) {
    const value = more[name];
    if (value) into[name] = (into[name] ?? 0) + value;
  }
  if (!more.refused) return;
  into.refused ??= {};
  for (const code in more.refused) into.refused[code] = (into.refused[code] ?? 0) + more.refused[code]!;
}

/** How long a period's counts are kept: days for about three months, months for two years. */
export const KEEP_DAYS = 93;
export const KEEP_MONTHS = 25;

/** Entries of one key and pair of periods share this id (and merge into one). */
export function groupOf(entry: LedgerEntry): string {
  return `${entry.keyId}\n${entry.periods.day}\n${entry.periods.month}`;
}

/**
 * Adds `entry` into `groups`, merged with the entry of the same key and periods: a second's answers of one key are
 * one write.
 *
 * @param maxHolds the most hold ids one merged entry keeps (the others lapse by themselves)
 */
export function mergeInto(groups: Map<string, LedgerEntry>, entry: LedgerEntry, maxHolds = Infinity): void {
  const id = groupOf(entry);
  let group = groups.get(id);
  if (!group) groups.set(id, group = { keyId: entry.keyId, periods: entry.periods, counts: {}, holds: [] });
  addCounts(group.counts, entry.counts);
  for (const hold of entry.holds ?? []) if (group.holds!.length < maxHolds) group.holds!.push(hold);
}

/** @returns the entries merged per key and periods */
export function mergeEntries(entries: readonly LedgerEntry[]): LedgerEntry[] {
  const groups = new Map<string, LedgerEntry>();
  for (const entry of entries) mergeInto(groups, entry);
  return [...groups.values()];
}
