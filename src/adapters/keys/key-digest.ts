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
export const sha256Hex: KeyDigest = bunHasher ? (text) => new bunHasher("sha256").update(text).digest("hex") : nodeSha256Hex();
