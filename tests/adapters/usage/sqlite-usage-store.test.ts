/** @module Tests of the SQLite usage store: the store contract, shared by processes, kept across a restart. */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSqliteUsageStore } from "../../../src/adapters/usage/sqlite-usage-store.ts";
import type { UsageStore } from "../../../src/domain/usage/meter.ts";
import { holdOf, usageStoreContract } from "./usage-store-contract.ts";

const dir = mkdtempSync(join(tmpdir(), "vcs-usage-sqlite-"));
const path = join(dir, "data", "usage.sqlite");
const opened: UsageStore[] = [];
afterAll(async () => {
  for (const store of opened) await store.close();
  rmSync(dir, { recursive: true, force: true });
});
const open = () => {
  const store = createSqliteUsageStore({ path, now: () => Date.UTC(2026, 10, 14, 12) });
  opened.push(store);
  return store;
};

describe("createSqliteUsageStore()", () => {
  usageStoreContract("sqlite", open);

  test("counts written before a close are read after a new open of the file (a restart)", async () => {
    const before = open();
    const hold = holdOf();
    await before.write([{ keyId: hold.keyId, periods: hold.periods, counts: { requests: 1, minutes: 5 } }]);
    await before.close();
    const after = open();
    const row = (await after.read([hold.periods.day], hold.now)).find((r) => r.keyId === hold.keyId);
    expect(row?.counts.minutes).toBe(5);
  });

  test("two processes holding the last requests of one key at once: never more than the quota", async () => {
    const keyId = `key_procs_${crypto.randomUUID().slice(0, 6)}`;
    const script = join(dir, "hold.ts");
    await Bun.write(
      script,
      `import { createSqliteUsageStore } from ${
        JSON.stringify(
          new URL("../../../src/adapters/usage/sqlite-usage-store.ts", import.meta.url).pathname,
        )
      };
const store = createSqliteUsageStore({ path: ${JSON.stringify(path)}, now: () => Date.UTC(2026, 10, 14, 12) });
let granted = 0;
for (let i = 0; i < 30; i++) {
  const r = await store.hold({ keyId: ${JSON.stringify(keyId)}, periods: { day: "2026-11-14", month: "2026-11" },
    holdId: crypto.randomUUID(), quotas: [{ limit: 25, unit: "req", period: "day" }], need: { min: 0, req: 1 },
    amounts: { min: 0, req: 1 }, expiresAt: Date.UTC(2026, 10, 14, 13), now: Date.UTC(2026, 10, 14, 12) });
  if (r.granted) granted++;
}
console.log(granted);`,
    );
    const runs = Array.from({ length: 3 }, () => Bun.spawn([process.execPath, script], { stdout: "pipe" }));
    const granted = await Promise.all(runs.map(async (run) => Number(await new Response(run.stdout).text())));
    expect(granted.reduce((a, b) => a + b, 0)).toBe(25);
  });

  test("a file that cannot be created makes every call fail (the meter then counts in memory)", async () => {
    const store = createSqliteUsageStore({ path: "/proc/no-such-place/usage.sqlite" });
    await expect(store.hold(holdOf())).rejects.toThrow();
    await expect(store.write([{ keyId: "k", periods: holdOf().periods, counts: { requests: 1 } }])).rejects.toThrow();
  });

  test("two processes opening a new file at once both wait for each other: 3 holds granted of 24, every time", async () => {
    const script = join(dir, "fresh.ts");
    const store = JSON.stringify(
      new URL("../../../src/adapters/usage/sqlite-usage-store.ts", import.meta.url).pathname,
    );
    await Bun.write(
      script,
      `import { createSqliteUsageStore } from ${store};
const store = createSqliteUsageStore({ path: process.argv[2], now: () => Date.UTC(2026, 10, 14, 12) });
const holds = await Promise.all(Array.from({ length: 12 }, (_, i) => store.hold({ keyId: "k", holdId: String(i) + process.pid,
  periods: { day: "2026-11-14", month: "2026-11" }, quotas: [{ limit: 3, unit: "req", period: "day" }],
  need: { min: 0, req: 1 }, amounts: { min: 0, req: 1 }, expiresAt: Date.UTC(2026, 10, 14, 13), now: Date.UTC(2026, 10, 14, 12) })));
console.log(holds.filter((hold) => hold.granted).length);`,
    );
    for (let round = 0; round < 5; round++) {
      const file = join(dir, `fresh-${round}`, "usage.sqlite");
      const runs = Array.from({ length: 2 }, () => Bun.spawn([process.execPath, script, file], { stdout: "pipe" }));
      const granted = await Promise.all(runs.map(async (run) => Number(await new Response(run.stdout).text())));
      // Neither process may fail ("database is locked"): the meter would then count on its own memory alone.
      expect(await Promise.all(runs.map((run) => run.exited))).toEqual([0, 0]);
      expect(granted.reduce((a, b) => a + b, 0)).toBe(3);
    }
  });
});
