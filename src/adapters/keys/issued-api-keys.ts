/** @module The issued-key record and store interface, and how a new key is issued. */
import type { ApiKeys, KeyIdentity } from "../../domain/ports.ts";
import { generateApiKey } from "./env-api-keys.ts";
import { sha256Hex } from "./key-digest.ts";

/**
 * An issued key as stored: never the key itself, only its SHA-256 digest.
 * Keys are 256-bit random tokens, so a fast digest is enough: nobody can
 * guess a token from its digest, and verification costs one hash.
 */
export interface KeyRecord {
  /** Public, non-secret id used by `keys revoke`, rate limits and logs, e.g. `key_3f9a1c2b7e4d`. */
  id: string;
  name: string;
  /** ISO 8601 time of issue. */
  createdAt: string;
  /** The key's own limit such as `60/min`; the default `RATE_LIMIT` applies when absent. */
  rateLimit?: string;
  /** The key's own quotas such as `60min/day,1000min/month`, or `none`; the default `QUOTA` applies when absent. */
  quota?: string;
  /** Lower-case hex SHA-256 of the key. */
  sha256: string;
}

/** A store of issued keys (a file, or Redis): what the server verifies and the CLI manages. */
export interface IssuedApiKeys extends ApiKeys {
  /** Adds a record made by {@linkcode issueKey}. */
  add(record: KeyRecord): Promise<void>;
  /** @returns every key's record, oldest first */
  list(): Promise<KeyRecord[]>;
  /** @returns the revoked key's record, or undefined when no key has that id */
  revoke(id: string): Promise<KeyRecord | undefined>;
  /**
   * Changes a key's own settings; a setting given as undefined is removed (the default applies again).
   *
   * @returns the key's new record, or undefined when no key has that id
   */
  update(id: string, change: KeySettings): Promise<KeyRecord | undefined>;
}

/** The settings of a key that `keys update` changes. */
export type KeySettings = Partial<Pick<KeyRecord, "rateLimit" | "quota">>;

/** @returns the record with `change` applied: a setting present in `change` but undefined is removed */
export function withSettings(record: KeyRecord, change: KeySettings): KeyRecord {
  const updated: KeyRecord = { ...record };
  for (const name of ["rateLimit", "quota"] as const) {
    if (!(name in change)) continue;
    if (change[name] === undefined) delete updated[name];
    else updated[name] = change[name];
  }
  return updated;
}

/**
 * Makes a new key and the record to store for it.
 *
 * @param options.name what the key is for, shown by `keys list`
 * @param options.rateLimit the key's own limit, already validated
 * @param options.now clock, swappable in tests
 * @returns the key (to show once) and its record (to store)
 */
export function issueKey(
  options: { name: string; rateLimit?: string; quota?: string; now?: () => Date },
): { key: string; record: KeyRecord } {
  const key = generateApiKey();
  const idBytes = crypto.getRandomValues(new Uint8Array(6));
  const record: KeyRecord = {
    id: `key_${Array.from(idBytes, (b) => b.toString(16).padStart(2, "0")).join("")}`,
    name: options.name,
    createdAt: (options.now ?? (() => new Date()))().toISOString(),
    sha256: sha256Hex(key),
  };
  if (options.rateLimit) record.rateLimit = options.rateLimit;
  if (options.quota) record.quota = options.quota;
  return { key, record };
}

/** @returns the identity the service knows a stored key by */
export function identityOf(record: KeyRecord): KeyIdentity {
  const identity: KeyIdentity = { id: record.id, name: record.name };
  if (record.rateLimit) identity.rateLimit = record.rateLimit;
  if (record.quota) identity.quota = record.quota;
  return identity;
}

/**
 * @param value parsed JSON
 * @returns whether `value` has a record's shape
 */
export function isKeyRecord(value: unknown): value is KeyRecord {
  const r = value as Partial<KeyRecord> | null;
  return typeof r === "object" && r !== null && typeof r.id === "string" && typeof r.name === "string" &&
    typeof r.createdAt === "string" &&
    typeof r.sha256 === "string" && /^[0-9a-f]{64}$/.test(r.sha256) &&
    (r.rateLimit === undefined || typeof r.rateLimit === "string") &&
    (r.quota === undefined || typeof r.quota === "string");
}
