/** @module The `keys` command: issues, lists and revokes API keys in the configured store. */
import process from "node:process";
import { issueKey, type KeyRecord } from "../adapters/keys/issued-api-keys.ts";
import { composeKeyStore } from "./compose/state.ts";
import { ConfigError, loadConfig } from "./config/config.ts";
import { createLogger } from "./log/logger.ts";
import { parseRateLimit } from "./config/rate-limit-spec.ts";
import { parseQuotaSetting } from "./config/quota-spec.ts";
import { runUsageReport } from "./usage/usage-command.ts";
import { runKeyUpdate } from "./usage/key-update.ts";

/** What the CLI talks to: the environment and two output streams. */
export interface CliIo {
  env: Record<string, string | undefined>;
  print(line: string): void;
  printError(line: string): void;
}

export const KEYS_USAGE = [
  "Usage: keys <command>",
  "  keys create --name NAME [--rate-limit 60/min] [--quota 600min/month]... [--json]",
  "                                                          issue a key (shown once)",
  "  keys list [--json]                                      list keys (never the keys themselves)",
  "  keys update ID [--rate-limit 60/min|default] [--quota 60min/day]...|none|default",
  "                                                          change a key's own limit or quotas",
  "  keys usage [ID] [--period day|month] [--json]           what each key used this UTC day or month",
  "  keys revoke ID                                          revoke a key at once",
  "Keys live in Redis when REDIS_URL (or REDIS_CLUSTER_NODES) is set, else in KEYS_FILE",
  "(default ./data/api-keys.json); usage in Redis too, else in usage.sqlite beside KEYS_FILE.",
];

/**
 * The `keys` command: issues, lists and revokes API keys in the store the
 * server reads (the same environment variables pick it).
 *
 * @param args the arguments after `keys`
 * @param io environment and output
 * @returns the exit code: 0 done, 1 failed, 2 bad usage
 */
export async function runKeysCli(args: readonly string[], io: CliIo): Promise<number> {
  const [command, ...rest] = args;
  const flags = parseFlags(rest);
  if (!command || command === "help" || command === "--help" || !flags) {
    return usage(io, command ? 2 : 0, command && !flags ? "Unknown or incomplete option" : undefined);
  }
  let config;
  try {
    config = loadConfig(io.env);
  } catch (error) {
    if (error instanceof ConfigError) return fail(io, error.message, 2);
    throw error;
  }
  const logger = createLogger({ write: (line) => io.printError(line), pretty: true });
  const store = await composeKeyStore(config, { logger });
  try {
    if (store.redis && !store.redis.available) {
      return fail(io, "Cannot reach Redis at REDIS_URL or REDIS_CLUSTER_NODES; start it or check the address", 1);
    }
    if (command === "create") return await create(store.keys, flags, io);
    if (command === "list") return await list(store.keys, flags, io);
    if (command === "revoke") return await revoke(store.keys, flags, io, store.where);
    if (command === "update") return await runKeyUpdate({ ...store, describe }, flags, io);
    if (command === "usage") return await runUsageReport({ ...store, config, now: Date.now() }, flags, io);
    return usage(io, 2, `Unknown command ${JSON.stringify(command)}`);
  } catch (error) {
    return fail(
      io,
      `Cannot use the key store (${store.where}): ${error instanceof Error ? error.message : String(error)}`,
      1,
    );
  } finally {
    await store.close();
  }
}

interface Flags {
  name?: string;
  rateLimit?: string;
  /** Every `--quota` given (it may be repeated). */
  quota: string[];
  period?: string;
  json: boolean;
  positional: string[];
}

type Keys = Awaited<ReturnType<typeof composeKeyStore>>["keys"];

async function create(keys: Keys, flags: Flags, io: CliIo): Promise<number> {
  const name = flags.name?.trim();
  // deno-lint-ignore no-control-regex -- control characters are exactly what a name must not hold
  if (!name || name.length > 100 || /[\u0000-\u001f\u007f]/.test(name)) {
    return fail(io, "keys create needs --name NAME: 1 to 100 printable characters, such as --name mobile-app", 2);
  }
  if (flags.rateLimit !== undefined && !parseRateLimit(flags.rateLimit)) {
    return fail(
      io,
      `--rate-limit must look like 60/min, 10/s, 500/hour or 1000/day: current value is ${
        JSON.stringify(flags.rateLimit)
      }`,
      2,
    );
  }
  const quota = flags.quota.length > 0 ? parseQuotaSetting(flags.quota) : undefined;
  if (quota && "problem" in quota) return fail(io, `--quota: ${quota.problem}`, 2);
  const { key, record } = issueKey({ name, rateLimit: flags.rateLimit?.trim(), quota: quota?.text });
  await keys.add(record);
  if (flags.json) {
    io.print(JSON.stringify({ key, ...publicFields(record) }));
    return 0;
  }
  io.print(`Created key ${record.id} (${describe(record)}).`);
  io.print("The key is shown only this once; store it now:");
  io.print(`  ${key}`);
  return 0;
}

async function list(keys: Keys, flags: Flags, io: CliIo): Promise<number> {
  const records = await keys.list();
  if (flags.json) {
    io.print(JSON.stringify(records.map(publicFields)));
    return 0;
  }
  if (records.length === 0) {
    io.print("No keys issued yet; create one with: keys create --name NAME");
    return 0;
  }
  const rows = [
    ["ID", "NAME", "CREATED", "RATE LIMIT"],
    ...records.map((r) => [r.id, r.name, r.createdAt, r.rateLimit ?? "default"]),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  for (const row of rows) io.print(row.map((cell, column) => cell.padEnd(widths[column]!)).join("  ").trimEnd());
  return 0;
}

async function revoke(keys: Keys, flags: Flags, io: CliIo, where: string): Promise<number> {
  const [id, ...extra] = flags.positional;
  if (!id || extra.length > 0) {
    return fail(io, "keys revoke needs exactly one key id, such as keys revoke key_3f9a1c2b7e4d (see keys list)", 2);
  }
  const revoked = await keys.revoke(id);
  if (!revoked) return fail(io, `No key with id ${JSON.stringify(id)} in ${where}; see keys list`, 1);
  io.print(`Revoked key ${revoked.id} (${describe(revoked)}); it is refused from now on.`);
  return 0;
}

const VALUED = ["--name", "--rate-limit", "--quota", "--period"];

/** @returns the flags, or undefined when an option is unknown or lacks its value */
function parseFlags(args: readonly string[]): Flags | undefined {
  const flags: Flags = { json: false, positional: [], quota: [] };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const [option, inline] = arg.startsWith("--") && arg.includes("=")
      ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)]
      : [arg, undefined];
    if (option === "--json") flags.json = true;
    else if (VALUED.includes(option)) {
      const value = inline ?? args[++i];
      if (value === undefined) return undefined;
      if (option === "--name") flags.name = value;
      else if (option === "--rate-limit") flags.rateLimit = value;
      else if (option === "--quota") flags.quota.push(value);
      else flags.period = value;
    } else if (option.startsWith("--")) return undefined;
    else flags.positional.push(arg);
  }
  return flags;
}

function publicFields(record: KeyRecord): Omit<KeyRecord, "sha256"> {
  const { sha256: _, ...rest } = record;
  return rest;
}

function describe(record: KeyRecord): string {
  return `name ${JSON.stringify(record.name)}, rate limit ${record.rateLimit ?? "default"}, quota ${
    record.quota ?? "default"
  }`;
}

function usage(io: CliIo, code: number, problem?: string): number {
  if (problem) io.printError(problem);
  for (const line of KEYS_USAGE) (code === 0 ? io.print : io.printError)(line);
  return code;
}

function fail(io: CliIo, message: string, code: number): number {
  io.printError(message);
  return code;
}

if (import.meta.main) {
  const code = await runKeysCli(process.argv.slice(2), {
    env: process.env,
    print: (line) => console.log(line),
    printError: (line) => console.error(line),
  });
  process.exit(code);
}
