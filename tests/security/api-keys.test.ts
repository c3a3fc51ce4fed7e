/** @module Security tests that API keys are verified by digest lookup, in constant time in their content. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createChainedApiKeys } from "../../src/adapters/keys/chained-api-keys.ts";
import { createStaticApiKeys } from "../../src/adapters/keys/env-api-keys.ts";
import { createFileApiKeys } from "../../src/adapters/keys/file-api-keys.ts";
import { issueKey, type KeyRecord } from "../../src/adapters/keys/issued-api-keys.ts";
import { type KeyDigest, nodeSha256Hex, sha256Hex } from "../../src/adapters/keys/key-digest.ts";
import type { ApiKeys } from "../../src/domain/ports.ts";

/**
 * Keys are compared in constant time because they are never compared at all:
 * each store hashes the presented key (SHA-256, over all of it) and looks the
 * digest up. A timing test of "long common prefix vs none" cannot prove that
 * on a shared CI machine, so the proof is structural (the decision depends on
 * the digest only), with a cheap, generous timing bound as a sanity check.
 */
const dir = mkdtempSync(join(tmpdir(), "vcs-keys-"));
const STATIC_KEY = "vcs_static_0123456789abcdefghijklmnopqrstuvwxyzABCDEFGH";
let issued: string;
let issuedRecord: KeyRecord;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

beforeAll(() => {
  const made = issueKey({ name: "security test" });
  issued = made.key;
  issuedRecord = made.record;
});

/** Every store as composed, each digesting presented keys with `digest`. */
async function storesWith(digest: KeyDigest): Promise<Record<string, ApiKeys>> {
  const file = createFileApiKeys({ path: join(dir, `keys-${crypto.randomUUID()}.json`), digest });
  await file.add(issuedRecord);
  const env = createStaticApiKeys([STATIC_KEY], { digest });
  return {
    "API_KEYS (static)": env,
    "KEYS_FILE (issued)": file,
    "chained, as composed": createChainedApiKeys([env, file]),
  };
}

describe("API keys are verified by digest lookup (constant time in the key's content)", () => {
  test("the digest is SHA-256 of the whole key, on Bun's hasher and node:crypto alike (FIPS 180-2 test vector), and stores use it by default", async () => {
    for (const digest of [sha256Hex, nodeSha256Hex()]) {
      expect(digest("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
      // Non-ASCII is digested as UTF-8 (the value from Python's hashlib).
      expect(digest("é🎉")).toBe("457eec3d021f59e24b2e57e2bc9f0239490b4c290f4ab01820e159caa757ba93");
    }
    expect(issuedRecord.sha256).toBe(sha256Hex(issued));
    const file = createFileApiKeys({ path: join(dir, "default.json") });
    await file.add(issuedRecord);
    expect(await file.verify(issued)).toBeDefined();
    expect(await createStaticApiKeys([STATIC_KEY]).verify(STATIC_KEY)).toBeDefined();
  });

  test("every store digests the whole presented key before deciding", async () => {
    const seen: string[] = [];
    const stores = await storesWith((key) => {
      seen.push(key);
      return sha256Hex(key);
    });
    for (const [name, store] of Object.entries(stores)) {
      seen.length = 0;
      const presented = `${issued.slice(0, -1)}#`;
      expect(await store.verify(presented), name).toBeUndefined();
      expect(seen.length, name).toBeGreaterThanOrEqual(1);
      for (const call of seen) expect(call, name).toBe(presented);
    }
  });

  test("the decision depends on the digest only: any key whose digest matches is accepted, so no raw comparison happens", async () => {
    for (const target of [STATIC_KEY, issued]) {
      const stores = await storesWith((
        key,
      ) => (key === "completely different text" ? sha256Hex(target) : sha256Hex(key)));
      for (const [name, store] of Object.entries(stores)) {
        if (name.startsWith("API_KEYS") && target === issued) continue;
        if (name.startsWith("KEYS_FILE") && target === STATIC_KEY) continue;
        expect(await store.verify("completely different text"), `${name} via digest of ${target.slice(0, 8)}`)
          .toBeDefined();
        expect(await store.verify("other text"), name).toBeUndefined();
        expect(await store.verify(target), name).toBeDefined();
      }
    }
  });

  test("sanity bound: wrong keys sharing all but the last character take no longer than unrelated ones", async () => {
    const store = createStaticApiKeys([STATIC_KEY]);
    const nearMiss = `${STATIC_KEY.slice(0, -1)}!`;
    const unrelated = "z".repeat(STATIC_KEY.length);
    const batch = async (key: string) => {
      const started = performance.now();
      for (let i = 0; i < 200; i++) await store.verify(key);
      return performance.now() - started;
    };
    const near: number[] = [];
    const far: number[] = [];
    for (let round = 0; round < 15; round++) {
      near.push(await batch(nearMiss));
      far.push(await batch(unrelated));
    }
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    // Generous on purpose: this only catches a gross early-exit comparison, never scheduler noise.
    expect(median(near) / median(far)).toBeLessThan(3);
    expect(median(far) / median(near)).toBeLessThan(3);
  });
});
