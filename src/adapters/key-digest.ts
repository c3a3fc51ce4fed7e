import { createHash } from "node:crypto";

/**
 * What a presented API key is looked up by. Stores keep only digests, and
 * find a key by its digest, so a lookup's time does not depend on how much
 * of a guessed key matches.
 */
export type KeyDigest = (key: string) => string;

/**
 * The lower-case hex SHA-256 digest of a UTF-8 string. Synchronous on
 * purpose: it runs on every request, and the Web Crypto digest is a promise
 * settled by another thread for a few dozen bytes of work.
 */
export const sha256Hex: KeyDigest = (text) => createHash("sha256").update(text).digest("hex");
