import type { ApiKeys, KeyIdentity } from "../domain/ports.ts";

/**
 * Accepts a fixed list of keys (from `API_KEYS`). Keys are looked up by their
 * SHA-256 digest, so the comparison time does not depend on how much of a
 * guessed key matches.
 *
 * @param keys the accepted keys, in plain text as configured
 */
export async function createStaticApiKeys(keys: readonly string[]): Promise<ApiKeys> {
  const byDigest = new Map<string, KeyIdentity>();
  for (const key of keys) {
    const digest = await sha256Hex(key);
    byDigest.set(digest, { id: `env:${digest.slice(0, 12)}`, name: "API_KEYS" });
  }
  return {
    async verify(key) {
      return byDigest.get(await sha256Hex(key));
    },
  };
}

/** @returns the lower-case hex SHA-256 digest of a UTF-8 string */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** @returns a new random API key: 32 bytes of randomness, URL-safe, with a recognisable prefix */
export function generateApiKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const base64 = btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_").replaceAll("=", "");
  return `vcs_${base64}`;
}
