/** @module Accepts the fixed keys of `API_KEYS`, looked up by digest, and generates new keys. */
import type { ApiKeys, KeyIdentity } from "../../domain/ports.ts";
import { type KeyDigest, sha256Hex } from "./key-digest.ts";

/**
 * Accepts a fixed list of keys (from `API_KEYS`). Keys are looked up by their
 * SHA-256 digest, so the comparison time does not depend on how much of a
 * guessed key matches.
 *
 * @param keys the accepted keys, in plain text as configured
 * @param options.digest how keys are digested (SHA-256; swappable in tests)
 */
export function createStaticApiKeys(keys: readonly string[], options: { digest?: KeyDigest } = {}): ApiKeys {
  const digestOf = options.digest ?? sha256Hex;
  const byDigest = new Map<string, KeyIdentity>();
  for (const key of keys) {
    const digest = digestOf(key);
    byDigest.set(digest, { id: `env:${digest.slice(0, 12)}`, name: "API_KEYS" });
  }
  return {
    async verify(key) {
      return byDigest.get(digestOf(key));
    },
  };
}

/** @returns a new random API key: 32 bytes of randomness, URL-safe, with a recognisable prefix */
export function generateApiKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const base64 = btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_").replaceAll("=", "");
  return `vcs_${base64}`;
}
