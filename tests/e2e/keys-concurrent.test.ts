/** @module End-to-end test of concurrent `keys create` and `keys revoke` runs against one key file. */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFileApiKeys } from "../../src/adapters/keys/file-api-keys.ts";
import { issueKey } from "../../src/adapters/keys/issued-api-keys.ts";
import { postChat, startService, targetFromEnv } from "../support/service/process.ts";
import { runKeys } from "../adapters/keys/keys-cli-process.ts";

/**
 * Issue 15 item 2: eight `keys create` at once kept only some of their keys
 * (each read the file, added its key and renamed its copy over the others').
 * A key printed as created must work, and a revoked one must not.
 */
const dir = mkdtempSync(join(tmpdir(), "vcs-keys-race-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe(`concurrent keys CLI runs on one KEYS_FILE (${targetFromEnv()})`, () => {
  test("16 creates and 8 revokes at once: every printed key is accepted, every revoked key refused", async () => {
    const env = { KEYS_FILE: join(dir, "keys.json") };
    // Keys to revoke, issued beforehand in the same file.
    const store = createFileApiKeys({ path: env.KEYS_FILE });
    const doomed = Array.from({ length: 8 }, (_, i) => issueKey({ name: `doomed-${i}` }));
    for (const { record } of doomed) await store.add(record);

    // 24 processes at once on a small machine: Deno starts each in about a second of CPU, so the last may end
    // well after one run's usual 20 s bound (22 s seen on a loaded 2-core machine).
    const bound = { entry: true, timeoutMs: 60_000 };
    const creates = Array.from(
      { length: 16 },
      (_, i) => runKeys(env, ["create", "--name", `client-${i}`, "--json"], bound),
    );
    const revokes = doomed.map(({ record }) => runKeys(env, ["revoke", record.id], bound));
    const runs = await Promise.all([...creates, ...revokes]);
    for (const run of runs) {
      expect({ code: run.code, stderr: run.code === 0 ? "" : run.stderr }).toEqual({ code: 0, stderr: "" });
    }
    const printed = runs.slice(0, 16).map((run) =>
      (JSON.parse(run.stdout.trim().split("\n").at(-1)!) as { key: string }).key
    );

    const kept = (JSON.parse(readFileSync(env.KEYS_FILE, "utf8")) as { keys: { name: string }[] }).keys.map((k) =>
      k.name
    ).sort();
    expect(kept).toEqual(Array.from({ length: 16 }, (_, i) => `client-${i}`).sort());
    expect(readdirSync(dir)).toEqual(["keys.json"]); // no lock or temporary file left behind

    const service = await startService({ ...env, YOUTUBE_BASE_URL: "http://127.0.0.1:9" });
    try {
      // An empty object is refused as invalid (400) once the key passed, and as unauthorized (401) before.
      for (const key of printed) expect((await postChat(service.url, {}, { "x-api-key": key })).status).toBe(400);
      for (const { key } of doomed) expect((await postChat(service.url, {}, { "x-api-key": key })).status).toBe(401);
    } finally {
      await service.stop("SIGKILL");
    }
  }, 90_000);
});
