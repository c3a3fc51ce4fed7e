/** @module Tests of the `keys usage` report: counts per key and period, quotas left, the table and its columns. */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSqliteUsageStore } from "../../../src/adapters/usage/sqlite-usage-store.ts";
import { type ReportedKey, usageReport, usageTable } from "../../../src/app/usage/usage-report.ts";

const dir = mkdtempSync(join(tmpdir(), "vcs-usage-report-"));
const store = createSqliteUsageStore({ path: join(dir, "usage.sqlite") });
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const NOW = Date.UTC(2026, 10, 14, 18);
const today = { day: "2026-11-14", month: "2026-11" };
const earlier = { day: "2026-11-02", month: "2026-11" };
const issued: ReportedKey[] = [
  { id: "key_team", name: "team x", quotas: [{ limit: 60, unit: "min", period: "day" }] },
  { id: "key_idle", name: "idle", quotas: [] },
];
const other = (id: string): ReportedKey => ({ id, name: id.startsWith("env:") ? "API_KEYS" : "(revoked)", quotas: [] });

describe("usageReport()", () => {
  test("gives every issued key and every other caller with counts, the period's counts and each quota's standing", async () => {
    await store.write([
      { keyId: "key_team", periods: today, counts: { requests: 2, cacheHits: 1, minutes: 10, inputTokens: 900 } },
      { keyId: "key_team", periods: earlier, counts: { requests: 1, minutes: 25, outputTokens: 40, sttSeconds: 316 } },
      { keyId: "key_team", periods: today, counts: { refused: { quota_exceeded: 1 } } },
      { keyId: "env:abc", periods: earlier, counts: { requests: 1, minutes: 1 } },
    ]);
    await store.hold({
      keyId: "key_team",
      periods: today,
      holdId: "in-flight",
      quotas: [],
      need: { min: 0, req: 0 },
      amounts: { min: 5, req: 1 },
      expiresAt: NOW + 60_000,
      now: NOW,
    });
    const month = await usageReport(store, { issued, other }, { period: "month", now: NOW });
    expect(month).toEqual([
      {
        id: "key_team",
        name: "team x",
        period: "2026-11",
        requests: 3,
        cacheHits: 1,
        minutes: 35,
        inputTokens: 900,
        outputTokens: 40,
        sttSeconds: 316,
        refused: { quota_exceeded: 1 },
        quotas: [{ quota: "60min/day", limit: 60, used: 10, remaining: 45, resetsAt: "2026-11-15T00:00:00.000Z" }],
      },
      expect.objectContaining({ id: "key_idle", requests: 0, minutes: 0, refused: {}, quotas: [] }),
      expect.objectContaining({ id: "env:abc", name: "API_KEYS", requests: 1, minutes: 1 }),
    ]);
    const day = await usageReport(store, { issued, other }, { period: "day", now: NOW, id: "key_team" });
    expect(day.map((u) => [u.id, u.period, u.minutes])).toEqual([["key_team", "2026-11-14", 10]]);
    expect(await usageReport(store, { issued, other }, { period: "day", now: NOW, id: "key_none" })).toEqual([]);
  });

  test("usageTable() aligns one line per key, refusals by code and quotas with what is left", async () => {
    const report = await usageReport(store, { issued, other }, { period: "month", now: NOW });
    const lines = usageTable(report);
    expect(lines[0]).toMatch(/^ID\s+NAME\s+PERIOD\s+REQUESTS\s+CACHE HITS\s+MINUTES\s+INPUT TOKENS\s+OUTPUT TOKENS/);
    expect(lines[1]).toMatch(/^key_team\s+team x\s+2026-11\s+3\s+1\s+35\s+900\s+40\s+316\s+quota_exceeded:1\s+/);
    expect(lines[1]).toEndWith("60min/day 45 left (resets 2026-11-15T00:00Z)");
    expect(lines[2]).toMatch(/^key_idle\s+idle\s+2026-11\s+(0\s+){7}none$/);
    expect(new Set(lines.map((line) => line.indexOf("2026-11"))).size).toBe(2); // the header has none
  });
});
