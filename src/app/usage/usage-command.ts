/** @module The `keys usage` command: reads the usage store and prints the report as a table or JSON. */
import type { KeyRecord } from "../../adapters/keys/issued-api-keys.ts";
import type { RedisConnection } from "../../adapters/redis/redis-connection.ts";
import type { QuotaPeriod } from "../../domain/usage/quota.ts";
import { composeUsageStore } from "../compose/usage.ts";
import type { Config } from "../config/config.ts";
import { quotasOf } from "../config/quota-spec.ts";
import { type ReportedKey, usageReport, usageTable } from "./usage-report.ts";

/** Names of the callers that are not issued keys. */
const OTHER_NAMES: [RegExp, string][] = [[/^env:/, "API_KEYS"], [/^mcp:/, "MCP (stdio)"]];

/**
 * `keys usage [ID] [--period day|month] [--json]`: every key's counts in the current UTC day or month (month by
 * default), and where its quotas stand.
 *
 * @param source the key store's records and connection, the settings (`QUOTA`, `KEYS_FILE`), and the time
 * @param options the command's arguments
 * @returns the exit code: 0 done, 1 unknown key, 2 bad usage
 */
export async function runUsageReport(
  source: { keys: { list(): Promise<KeyRecord[]> }; redis?: RedisConnection; config: Config; now: number },
  options: { positional: string[]; period?: string; json: boolean },
  io: { print(line: string): void; printError(line: string): void },
): Promise<number> {
  const [id, ...extra] = options.positional;
  const period = options.period ?? "month";
  if (extra.length > 0 || (period !== "day" && period !== "month")) {
    io.printError("keys usage takes at most one key id and --period day or month, such as keys usage --period day");
    return 2;
  }
  const { config } = source;
  const issued: ReportedKey[] = (await source.keys.list()).map((record: KeyRecord) => ({
    id: record.id,
    name: record.name,
    quotas: quotasOf(record.quota, config.quota) ?? config.quota,
  }));
  const other = (keyId: string): ReportedKey => ({
    id: keyId,
    name: OTHER_NAMES.find(([pattern]) => pattern.test(keyId))?.[1] ?? "(revoked)",
    quotas: config.quota,
  });
  const store = composeUsageStore(config, source.redis);
  try {
    const report = await usageReport(store, { issued, other }, { period: period as QuotaPeriod, now: source.now, id });
    if (id !== undefined && report.length === 0) {
      io.printError(`No key with id ${JSON.stringify(id)} and no usage by it this ${period}; see keys list`);
      return 1;
    }
    if (options.json) io.print(JSON.stringify(report));
    else if (report.length === 0) io.print(`No usage this ${period} and no key issued yet.`);
    else for (const line of usageTable(report)) io.print(line);
    return 0;
  } finally {
    await store.close();
  }
}
