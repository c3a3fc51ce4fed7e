/** @module Tests of `keys update`: quotas and rate limit set, removed with `default`, `none`, bad values named. */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFileApiKeys } from "../../../src/adapters/keys/file-api-keys.ts";
import { issueKey } from "../../../src/adapters/keys/issued-api-keys.ts";
import { runKeyUpdate } from "../../../src/app/usage/key-update.ts";

const dir = mkdtempSync(join(tmpdir(), "vcs-key-update-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function setUp() {
  const keys = createFileApiKeys({ path: join(dir, `${crypto.randomUUID()}.json`) });
  const { record } = issueKey({ name: "team", rateLimit: "60/min" });
  await keys.add(record);
  const out: string[] = [];
  const err: string[] = [];
  const io = { print: (line: string) => out.push(line), printError: (line: string) => err.push(line) };
  const store = { keys, where: "the file", describe: (r: { quota?: string }) => `quota ${r.quota ?? "default"}` };
  const update = (args: { rateLimit?: string; quota?: string[]; id?: string; json?: boolean }) =>
    runKeyUpdate(store, { positional: [args.id ?? record.id], quota: [], json: false, ...args }, io);
  return { keys, record, update, out, err };
}

describe("runKeyUpdate()", () => {
  test("sets a key's quotas in normal form, then removes its own settings with default", async () => {
    const { keys, record, update, out } = await setUp();
    expect(await update({ quota: ["60min/day", "1000MIN/month"] })).toBe(0);
    expect(out.at(-1)).toBe(
      `Updated key ${record.id} (quota 60min/day,1000min/month); every instance applies it from its next request.`,
    );
    expect((await keys.list())[0]).toMatchObject({ quota: "60min/day,1000min/month", rateLimit: "60/min" });
    expect(await update({ quota: ["default"], rateLimit: "default", json: true })).toBe(0);
    const shown = JSON.parse(out.at(-1)!);
    expect(shown).toEqual({ id: record.id, name: "team", createdAt: record.createdAt });
    expect((await keys.list())[0]!.quota).toBeUndefined();
    expect(await update({ quota: ["none"] })).toBe(0);
    expect((await keys.list())[0]!.quota).toBe("none");
  });

  test("refuses bad values (naming them), a missing setting and an unknown key", async () => {
    const { update, err } = await setUp();
    expect(await update({ quota: ["60min/week"] })).toBe(2);
    expect(err.at(-1)).toContain('current value is "60min/week"');
    expect(await update({ rateLimit: "lots" })).toBe(2);
    expect(err.at(-1)).toContain('current value is "lots"');
    expect(await update({})).toBe(2);
    expect(await update({ id: "key_000000000000", quota: ["none"] })).toBe(1);
    expect(err.at(-1)).toBe('No key with id "key_000000000000" in the file; see keys list');
  });
});
