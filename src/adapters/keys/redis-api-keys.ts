/** @module Issued API keys in a Redis hash shared by every instance, remembered briefly during outages. */
import { AppError } from "../../domain/errors.ts";
import type { KeyIdentity } from "../../domain/ports.ts";
import { type KeyDigest, sha256Hex } from "./key-digest.ts";
import { identityOf, isKeyRecord, type IssuedApiKeys, type KeyRecord, withSettings } from "./issued-api-keys.ts";
import type { RedisConnection } from "../redis/redis-connection.ts";
import { markRevoked } from "../usage/redis-usage-store.ts";

/** How long the store asks a caller to wait while the keys cannot be read. */
const KEY_STORE_RETRY_SECONDS = 5;

/** Replaces a key's record only if the key is still issued. */
const UPDATE_IF_PRESENT =
  "if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) return 1 end " +
  "return 0";

/**
 * Issued keys in Redis, shared by every instance: one hash `<prefix>keys`
 * mapping each key's SHA-256 digest to its record (JSON). Verifying is one
 * `HGET`; revoking marks the key's quota holds revoked, then deletes the
 * field, so every instance refuses the key on its next request.
 *
 * While Redis is unreachable, a key this instance verified within the last
 * `rememberMs` (default 10 minutes) is still accepted; any other key is
 * answered 503 `overloaded` until Redis is back: neither let in nor called
 * unknown. (Keys from `API_KEYS` never need Redis.)
 *
 * @param options.connection the shared Redis connection
 * @param options.rememberMs how long a verified key is remembered for outages
 * @param options.now clock in ms, swappable in tests
 * @param options.digest how presented keys are digested (SHA-256; swappable in tests)
 */
export function createRedisApiKeys(
  options: { connection: RedisConnection; rememberMs?: number; now?: () => number; digest?: KeyDigest },
): IssuedApiKeys {
  const { connection } = options;
  const digestOf = options.digest ?? sha256Hex;
  const hash = `${connection.prefix}keys`;
  const now = options.now ?? Date.now;
  const rememberMs = options.rememberMs ?? 600_000;
  const remembered = new Map<string, { identity: KeyIdentity; until: number }>();

  const remember = (digest: string, identity: KeyIdentity): void => {
    remembered.delete(digest);
    remembered.set(digest, { identity, until: now() + rememberMs });
    if (remembered.size > 10_000) remembered.delete(remembered.keys().next().value!);
  };

  const all = async (): Promise<KeyRecord[]> => {
    const values = await connection.run((client) => client.hvals(hash));
    return values.map((text) => JSON.parse(text) as unknown).filter(isKeyRecord).sort((a, b) =>
      a.createdAt.localeCompare(b.createdAt)
    );
  };

  return {
    async verify(key) {
      const digest = digestOf(key);
      let text: string | null;
      try {
        text = await connection.run((client) => client.hget(hash, digest));
      } catch {
        const known = remembered.get(digest);
        if (known && known.until > now()) return known.identity;
        // Not known to be unknown: the store asks the caller to come back, never says its key is wrong, nor lets it in.
        throw new AppError("overloaded", "The store of API keys cannot be reached; send the request again shortly", {
          retryAfterSeconds: KEY_STORE_RETRY_SECONDS,
        });
      }
      const record = text === null ? undefined : (JSON.parse(text) as unknown);
      if (!isKeyRecord(record)) {
        remembered.delete(digest);
        return undefined;
      }
      const identity = identityOf(record);
      remember(digest, identity);
      return identity;
    },
    async add(record) {
      await connection.run((client) => client.hset(hash, record.sha256, JSON.stringify(record)));
    },
    list: all,
    async revoke(id) {
      const found = (await all()).find((record) => record.id === id);
      if (!found) return undefined;
      // Holds first: an instance that remembers the key verified (see rememberHeldKeys) is refused by its next hold.
      await markRevoked(connection, found.id);
      await connection.run((client) => client.hdel(hash, found.sha256));
      return found;
    },
    async update(id, change) {
      const found = (await all()).find((record) => record.id === id);
      if (!found) return undefined;
      const updated = withSettings(found, change);
      // Only while the key is still there: a key revoked meanwhile stays revoked.
      const written = await connection.run((client) =>
        client.eval(UPDATE_IF_PRESENT, 1, hash, found.sha256, JSON.stringify(updated))
      );
      return written === 1 ? updated : undefined;
    },
  };
}
