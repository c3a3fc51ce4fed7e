/** @module Parses quotas such as `600min/month` (several at once, or `none`), writes them back, reads `QUOTA`. */
import type { Quota, QuotaPeriod, QuotaUnit } from "../../domain/usage/quota.ts";
import type { EnvReader } from "./readers.ts";

/** How a quota is written, for messages: the accepted forms. */
export const QUOTA_FORMS = "such as 600min/month, 60min/day or 1000req/day (units min, req; periods day, month)";

/** The word that gives a key no quota at all, whatever `QUOTA` says. */
export const NO_QUOTA = "none";

/** A parsed quota setting: the quotas, and the setting as stored (`60min/day,1000min/month`, or `none`). */
export interface QuotaSetting {
  quotas: Quota[];
  text: string;
}

/**
 * @param texts each one quota or several, comma-separated (`--quota` may be repeated); `none` alone means no quota
 * @returns the setting, or the problem to report (naming the offending value)
 */
export function parseQuotaSetting(texts: readonly string[]): QuotaSetting | { problem: string } {
  const parts = texts.flatMap((text) => text.split(",")).map((part) => part.trim()).filter(Boolean);
  if (parts.length === 0) return { problem: `a quota is needed, ${QUOTA_FORMS}, or ${NO_QUOTA}` };
  if (parts.some((part) => part.toLowerCase() === NO_QUOTA)) {
    return parts.length === 1
      ? { quotas: [], text: NO_QUOTA }
      : { problem: `${NO_QUOTA} cannot be combined with other quotas: current value is ${JSON.stringify(parts)}` };
  }
  const quotas: Quota[] = [];
  for (const part of parts) {
    const quota = parseQuota(part);
    if (!quota) return { problem: `a quota must look ${QUOTA_FORMS}: current value is ${JSON.stringify(part)}` };
    if (quotas.some((q) => q.unit === quota.unit && q.period === quota.period)) {
      return { problem: `only one ${quota.unit}/${quota.period} quota may be given: current value is ${parts}` };
    }
    quotas.push(quota);
  }
  return { quotas, text: quotas.map(formatQuota).join(",") };
}

/**
 * @param text e.g. `600min/month`, `3 req / day`
 * @returns the quota, or undefined when `text` is not of that form
 */
export function parseQuota(text: string): Quota | undefined {
  const match = /^\s*(\d{1,9})\s*(min|req)\s*\/\s*(day|month)\s*$/i.exec(text);
  if (!match || Number(match[1]) < 1) return undefined;
  return {
    limit: Number(match[1]),
    unit: match[2]!.toLowerCase() as QuotaUnit,
    period: match[3]!.toLowerCase() as QuotaPeriod,
  };
}

/** @returns the quota as written in settings and headers, e.g. `600min/month` */
export function formatQuota(quota: Quota): string {
  return `${quota.limit}${quota.unit}/${quota.period}`;
}

/**
 * A key's quotas: its own setting when it has one (`none`: no quota), else the default.
 *
 * @param setting the key's stored setting, as {@link parseQuotaSetting} wrote it
 * @param fallback the default (`QUOTA`)
 * @returns the quotas, or undefined when the stored setting does not parse
 */
export function quotasOf(setting: string | undefined, fallback: readonly Quota[]): readonly Quota[] | undefined {
  if (setting === undefined) return fallback;
  const parsed = parseQuotaSetting([setting]);
  return "problem" in parsed ? undefined : parsed.quotas;
}

/** `QUOTA`: the quotas of every key without its own, none when unset. */
export function readQuota(read: EnvReader): Quota[] {
  const value = read.raw("QUOTA");
  if (value === undefined) return [];
  const setting = parseQuotaSetting([value]);
  if ("problem" in setting) {
    read.fail(`QUOTA: ${setting.problem}`);
    return [];
  }
  return setting.quotas;
}
