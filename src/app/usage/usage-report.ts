/** @module The `keys usage` report: each key's counts in a UTC day or month, and where its quotas stand. */
import { periodEnd, periodsAt, type Quota, type QuotaPeriod } from "../../domain/usage/quota.ts";
import { type UsageCounts, type UsageRow, type UsageStore } from "../../domain/usage/meter.ts";
import { formatQuota } from "../config/quota-spec.ts";

/** A key the report names: its id and name, and the quotas it is under (its own, else the default). */
export interface ReportedKey {
  id: string;
  name: string;
  quotas: readonly Quota[];
}

/** One key's line of the report, as `--json` prints it: what an operator bills from. */
export interface KeyUsage extends UsageCounts {
  id: string;
  name: string;
  /** The UTC period counted: `2026-11-14` (day) or `2026-11` (month). */
  period: string;
  quotas: { quota: string; limit: number; used: number; remaining: number; resetsAt: string }[];
}

/**
 * Every issued key (used or not) and every other caller with counts in the period (`API_KEYS` keys, MCP, revoked
 * keys), or only the one asked for.
 *
 * @param keys the issued keys, and how callers that are not issued keys are named and limited
 * @param options.period the UTC day or month holding `now`
 * @param options.id only this key
 */
export async function usageReport(
  store: UsageStore,
  keys: { issued: readonly ReportedKey[]; other(id: string): ReportedKey },
  options: { period: QuotaPeriod; now: number; id?: string },
): Promise<KeyUsage[]> {
  const periods = periodsAt(options.now);
  const asked = periods[options.period];
  const rows = await store.read([...new Set([asked, periods.day, periods.month])], options.now);
  const rowOf = (id: string, period: string) => rows.find((row) => row.keyId === id && row.period === period);
  const ids = [...keys.issued.map((key) => key.id)];
  for (const row of rows) if (row.period === asked && !ids.includes(row.keyId)) ids.push(row.keyId);
  const reported = ids.filter((id) => options.id === undefined || id === options.id);
  return reported.map((id) => {
    const key = keys.issued.find((k) => k.id === id) ?? keys.other(id);
    const quotas = key.quotas.map((quota) => {
      const row = rowOf(id, periods[quota.period]);
      const used = row ? (quota.unit === "min" ? row.counts.minutes : row.counts.requests) : 0;
      const held = row?.held[quota.unit] ?? 0;
      return {
        quota: formatQuota(quota),
        limit: quota.limit,
        used,
        remaining: Math.max(0, quota.limit - used - held),
        resetsAt: new Date(periodEnd(quota.period, options.now)).toISOString(),
      };
    });
    return { id, name: key.name, period: asked, ...countsOf(rowOf(id, asked)), quotas };
  });
}

function countsOf(row: UsageRow | undefined): UsageCounts {
  const counts = row?.counts;
  return {
    requests: counts?.requests ?? 0,
    cacheHits: counts?.cacheHits ?? 0,
    minutes: counts?.minutes ?? 0,
    inputTokens: counts?.inputTokens ?? 0,
    outputTokens: counts?.outputTokens ?? 0,
    sttSeconds: counts?.sttSeconds ?? 0,
    refused: counts?.refused ?? {},
  };
}

/** @returns the report as a table, one line per key, columns aligned */
export function usageTable(report: readonly KeyUsage[]): string[] {
  const rows = [
    ["ID", "NAME", "PERIOD", "REQUESTS", "CACHE HITS", "MINUTES", "INPUT TOKENS", "OUTPUT TOKENS", "STT SECONDS"],
    ...report.map((u) =>
      [u.id, u.name, u.period, u.requests, u.cacheHits, u.minutes, u.inputTokens, u.outputTokens, u.sttSeconds]
        .map(String)
    ),
  ];
  rows[0]!.push("REFUSED", "QUOTAS");
  report.forEach((u, i) => rows[i + 1]!.push(refusedCell(u.refused), quotasCell(u.quotas)));
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column]!)).join("  ").trimEnd());
}

function refusedCell(refused: Record<string, number>): string {
  const parts = Object.entries(refused).sort(([a], [b]) => a.localeCompare(b)).map(([code, n]) => `${code}:${n}`);
  return parts.length > 0 ? parts.join(" ") : "0";
}

function quotasCell(quotas: KeyUsage["quotas"]): string {
  if (quotas.length === 0) return "none";
  return quotas.map((q) => `${q.quota} ${q.remaining} left (resets ${q.resetsAt.slice(0, 16)}Z)`).join("; ");
}
