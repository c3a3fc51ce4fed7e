import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createChainedApiKeys } from "../../src/adapters/chained-api-keys.ts";
import { createStaticApiKeys, sha256Hex } from "../../src/adapters/env-api-keys.ts";
import { createFileApiKeys } from "../../src/adapters/file-api-keys.ts";
import { issueKey } from "../../src/adapters/issued-api-keys.ts";
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
let stores: Record<string, ApiKeys>;
const realDigest = crypto.subtle.digest.bind(crypto.subtle);

beforeAll(async () => {
  const file = createFileApiKeys({ path: join(dir, "keys.json") });
  const made = await issueKey({ name: "security test" });
  await file.add(made.record);
  issued = made.key;
  const env = await createStaticApiKeys([STATIC_KEY]);
  stores = { "API_KEYS (static)": env, "KEYS_FILE (issued)": file, "chained, as composed": createChainedApiKeys([env, file]) };
});
afterEach(() => {
  delete (crypto.subtle as { digest?: unknown }).digest;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Replaces crypto.subtle.digest for the test; afterEach restores the real one. */
function patchDigest(fake: (algorithm: AlgorithmIdentifier, data: BufferSource) => Promise<ArrayBuffer>): void {
  Object.defineProperty(crypto.subtle, "digest", { value: fake, configurable: true, writable: true });
}

const hexToBuffer = (hex: string) => new Uint8Array(hex.match(/../g)!.map((b) => parseInt(b, 16))).buffer;

describe("API keys are verified by digest lookup (constant time in the key's content)", () => {
  test("every store hashes the whole presented key with SHA-256 before deciding", async () => {
    for (const [name, store] of Object.entries(stores)) {
      const seen: { algorithm: string; text: string }[] = [];
      patchDigest(async (algorithm, data) => {
        seen.push({ algorithm: typeof algorithm === "string" ? algorithm : algorithm.name, text: new TextDecoder().decode(data as Uint8Array) });
        return await realDigest(algorithm, data);
      });
      const presented = `${issued.slice(0, -1)}#`;
      expect(await store.verify(presented), name).toBeUndefined();
      expect(seen.length, name).toBeGreaterThanOrEqual(1);
      for (const call of seen) expect(call, name).toEqual({ algorithm: "SHA-256", text: presented });
    }
  });

  test("the decision depends on the digest only: any key whose digest matches is accepted, so no raw comparison happens", async () => {
    for (const [name, store] of Object.entries(stores)) {
      for (const target of [STATIC_KEY, issued]) {
        if (name.startsWith("API_KEYS") && target === issued) continue;
        if (name.startsWith("KEYS_FILE") && target === STATIC_KEY) continue;
        const digest = hexToBuffer(await sha256Hex(target));
        patchDigest(async () => digest.slice(0));
        expect(await store.verify("completely different text"), `${name} via digest of ${target.slice(0, 8)}`).toBeDefined();
        delete (crypto.subtle as { digest?: unknown }).digest;
        expect(await store.verify("completely different text"), name).toBeUndefined();
        expect(await store.verify(target), name).toBeDefined();
      }
    }
  });

  test("sanity bound: wrong keys sharing all but the last character take no longer than unrelated ones", async () => {
    const store = stores["API_KEYS (static)"]!;
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
