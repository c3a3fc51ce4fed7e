/** @module SHA-256 digests of API keys, with Bun's native hasher or `node:crypto`. */
import process from "node:process";

/**
 * What a presented API key is looked up by. Stores keep only digests, and
 * find a key by its digest, so a lookup's time does not depend on how much
 * of a guessed key matches.
 */
export type KeyDigest = (key: string) => string;

type Hasher = new (algorithm: "sha256") => { update(text: string): { digest(encoding: "hex"): string } };

/** SHA-256 through `node:crypto`, loaded on first use (Deno, and anywhere without Bun's hasher). */
export function nodeSha256Hex(): KeyDigest {
  const { createHash } = process.getBuiltinModule("node:crypto");
  return (text) => createHash("sha256").update(text).digest("hex");
}

/** Bun's native hasher, when running on Bun: loading `node:crypto` there costs ~3 ms of start-up. */
const bunHasher = (globalThis as { Bun?: { CryptoHasher?: Hasher } }).Bun?.CryptoHasher;

/**
 * The lower-case hex SHA-256 digest of a UTF-8 string. Synchronous on
 * purpose: it runs on every request, and the Web Crypto digest is a promise
 * settled by another thread for a few dozen bytes of work.
 */
export const sha256Hex: KeyDigest = bunHasher
  ? (text) => new bunHasher("sha256").update(text).digest("hex")
  : nodeSha256Hex();

/**
 * Remembers the digests of the last `maxEntries` keys presented, so a key
 * sent again and again (every request of a client) is hashed once. Bounded
 * by count (oldest first out); a digest never changes, so entries need no
 * age. The lookup is a hash-map lookup on the whole key, whose time does not
 * depend on how much of a guessed key matches a real one.
 *
 * @param digest the digest remembered
 * @param maxEntries how many keys are remembered (1,024 by default)
 */
export function rememberDigests(digest: KeyDigest, maxEntries = 1_024): KeyDigest {
  const known = new Map<string, string>();
  return (key) => {
    let value = known.get(key);
    if (value === undefined) {
      value = digest(key);
      // Long keys are never keys this service issued: they are digested, not kept.
      if (key.length <= 256) {
        if (known.size >= maxEntries) known.delete(known.keys().next().value!);
        known.set(key, value);
      }
    }
    return value;
  };
}
