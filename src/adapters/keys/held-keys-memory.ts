/** @module Keys whose every request is held in Redis, remembered briefly once verified: no key read per request. */
import type { ApiKeys, KeyIdentity } from "../../domain/ports.ts";
import type { KeyDigest } from "./key-digest.ts";

/** How long a verified key is taken on trust: the lag of a change of its quotas or limit (`keys update`). */
export const HELD_KEY_MEMORY_MS = 5_000;
/** Keys remembered at most: the oldest goes first. */
const MAX_REMEMBERED = 10_000;

/**
 * Remembers for `ttlMs` each key `keys` verified whose requests all pass a quota hold in Redis (`held`), and answers
 * it again without asking `keys`. Such a key needs no read of its record per request: its hold refuses it once it is
 * revoked (`keys revoke` marks its holds first), from its very next request on every instance. A change of its
 * quotas or rate limit reaches an instance within `ttlMs`. Keys without quotas, and unknown keys, are asked every
 * time.
 *
 * @param options.held whether every request of this caller is held in Redis before any work
 * @param options.digest how presented keys are digested (what is remembered: never the key itself)
 */
export function rememberHeldKeys(
  keys: ApiKeys,
  options: { held: (identity: KeyIdentity) => boolean; digest: KeyDigest; ttlMs?: number; now?: () => number },
): ApiKeys {
  const ttlMs = options.ttlMs ?? HELD_KEY_MEMORY_MS;
  const now = options.now ?? Date.now;
  const remembered = new Map<string, { identity: KeyIdentity; until: number }>();
  return {
    async verify(key) {
      const digest = options.digest(key);
      const known = remembered.get(digest);
      if (known && known.until > now()) return known.identity;
      const identity = await keys.verify(key);
      remembered.delete(digest);
      if (identity && options.held(identity)) {
        remembered.set(digest, { identity, until: now() + ttlMs });
        if (remembered.size > MAX_REMEMBERED) remembered.delete(remembered.keys().next().value!);
      }
      return identity;
    },
  };
}
