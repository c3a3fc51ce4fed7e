/** @module Tests of the file key store: digests only, locking, revocation across processes, damaged files. */
import { afterEach, describe, expect, test } from "bun:test";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFileApiKeys } from "../../../src/adapters/keys/file-api-keys.ts";
import { issueKey } from "../../../src/adapters/keys/issued-api-keys.ts";

const dirs: string[] = [];
function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), "vcs-keys-"));
  dirs.push(dir);
  return join(dir, "nested", "api-keys.json");
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("createFileApiKeys()", () => {
  test("stores only the key's digest, and verifies the key to its identity", async () => {
    const path = tempFile();
    const store = createFileApiKeys({ path });
    const { key, record } = issueKey({ name: "mobile app", rateLimit: "60/min" });
    await store.add(record);
    const text = readFileSync(path, "utf8");
    expect(text).not.toContain(key);
    expect(text).toContain(record.sha256);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(path, ".."))).toEqual(["api-keys.json"]);
    expect(await store.verify(key)).toEqual({ id: record.id, name: "mobile app", rateLimit: "60/min" });
    expect(await store.verify(`${key}x`)).toBeUndefined();
  });

  test("a lock left by a crashed writer is taken over once stale; a live one is waited for", async () => {
    const path = tempFile();
    const store = createFileApiKeys({ path });
    await store.add(issueKey({ name: "first" }).record);
    mkdirSync(`${path}.lock`);
    const old = new Date(Date.now() - 60_000);
    utimesSync(`${path}.lock`, old, old);
    await store.add(issueKey({ name: "after a crash" }).record);
    expect((await store.list()).map((r) => r.name)).toEqual(["first", "after a crash"]);
    expect(readdirSync(join(path, "..")).sort()).toEqual(["api-keys.json"]);
    // A fresh lock (another writer at work) holds the change back until it goes.
    mkdirSync(`${path}.lock`);
    let done = false;
    const adding = store.add(issueKey({ name: "waited" }).record).then(() => (done = true));
    await Bun.sleep(150);
    expect(done).toBe(false);
    rmSync(`${path}.lock`, { recursive: true });
    await adding;
    expect((await store.list()).map((r) => r.name)).toEqual(["first", "after a crash", "waited"]);
  });

  test("a missing file holds no keys", async () => {
    const store = createFileApiKeys({ path: tempFile() });
    expect(await store.list()).toEqual([]);
    expect(await store.verify("vcs_anything")).toBeUndefined();
  });

  test("a key revoked by another process (the CLI) is refused by the running store at once", async () => {
    const path = tempFile();
    const server = createFileApiKeys({ path });
    const cli = createFileApiKeys({ path });
    const first = issueKey({ name: "first" });
    const second = issueKey({ name: "second" });
    await cli.add(first.record);
    expect(await server.verify(first.key)).toBeDefined();
    await cli.add(second.record);
    expect(await server.verify(second.key)).toBeDefined();
    expect((await cli.revoke(first.record.id))?.name).toBe("first");
    expect(await server.verify(first.key)).toBeUndefined();
    expect(await server.verify(second.key)).toBeDefined();
    expect((await cli.list()).map((r) => r.id)).toEqual([second.record.id]);
  });

  test("revoking an unknown id changes nothing and says so", async () => {
    const path = tempFile();
    const store = createFileApiKeys({ path });
    const { record } = issueKey({ name: "kept" });
    await store.add(record);
    expect(await store.revoke("key_000000000000")).toBeUndefined();
    expect(await store.list()).toHaveLength(1);
  });

  test("a damaged file keeps the last good keys for verification, warns once, and refuses to be overwritten", async () => {
    const path = tempFile();
    const warnings: unknown[] = [];
    const store = createFileApiKeys({ path, log: { warn: (event, fields) => warnings.push({ event, fields }) } });
    const { key, record } = issueKey({ name: "good" });
    await store.add(record);
    expect(await store.verify(key)).toBeDefined();
    writeFileSync(path, "{ not json");
    expect(await store.verify(key)).toBeDefined();
    expect(await store.verify(key)).toBeDefined();
    expect(warnings).toHaveLength(1);
    expect(JSON.stringify(warnings)).not.toContain(key);
    const other = issueKey({ name: "other" });
    await expect(store.add(other.record)).rejects.toThrow();
    expect(readFileSync(path, "utf8")).toBe("{ not json");
  });
});
