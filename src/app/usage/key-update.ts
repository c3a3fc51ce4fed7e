/** @module The `keys update` command: a key's own rate limit and quotas, set, removed or back to the default. */
import type { IssuedApiKeys, KeyRecord, KeySettings } from "../../adapters/keys/issued-api-keys.ts";
import { parseQuotaSetting } from "../config/quota-spec.ts";
import { parseRateLimit } from "../config/rate-limit-spec.ts";

/** The value that removes a key's own setting, so the default (`RATE_LIMIT`, `QUOTA`) applies again. */
const DEFAULT = "default";

/**
 * `keys update ID [--rate-limit 60/min|default] [--quota 60min/day]...|none|default`. Every instance applies the
 * change from the key's next request (it reads the record on each verification).
 *
 * @param store the issued keys, where they live (for messages), and how a record is described
 * @returns the exit code: 0 done, 1 unknown key, 2 bad usage
 */
export async function runKeyUpdate(
  store: { keys: IssuedApiKeys; where: string; describe(record: KeyRecord): string },
  options: { positional: string[]; rateLimit?: string; quota: string[]; json: boolean },
  io: { print(line: string): void; printError(line: string): void },
): Promise<number> {
  const [id, ...extra] = options.positional;
  if (!id || extra.length > 0 || (options.rateLimit === undefined && options.quota.length === 0)) {
    io.printError("keys update needs one key id and a setting, such as keys update key_3f9a1c2b7e4d --quota 60min/day");
    return 2;
  }
  const change = settingsOf(options.rateLimit, options.quota);
  if ("problem" in change) {
    io.printError(change.problem);
    return 2;
  }
  const updated = await store.keys.update(id, change);
  if (!updated) {
    io.printError(`No key with id ${JSON.stringify(id)} in ${store.where}; see keys list`);
    return 1;
  }
  const { sha256: _, ...shown } = updated;
  if (options.json) io.print(JSON.stringify(shown));
  else {io.print(
      `Updated key ${updated.id} (${store.describe(updated)}); every instance applies it from its next request.`,
    );}
  return 0;
}

/** @returns the change the options ask for (a setting present but undefined is removed), or the problem */
function settingsOf(rateLimit: string | undefined, quota: string[]): KeySettings | { problem: string } {
  const change: KeySettings = {};
  if (rateLimit !== undefined) {
    const value = rateLimit.trim();
    if (value !== DEFAULT && !parseRateLimit(value)) {
      return {
        problem: `--rate-limit must look like 60/min, 10/s, 500/hour or 1000/day, or be default: current value is ${
          JSON.stringify(rateLimit)
        }`,
      };
    }
    change.rateLimit = value === DEFAULT ? undefined : value;
  }
  if (quota.length === 1 && quota[0]!.trim() === DEFAULT) change.quota = undefined;
  else if (quota.length > 0) {
    const setting = parseQuotaSetting(quota);
    if ("problem" in setting) return { problem: `--quota: ${setting.problem}, or default` };
    change.quota = setting.text;
  }
  return change;
}
