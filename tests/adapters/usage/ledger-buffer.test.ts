/** @module Tests of the ledger buffer: entries merged per key and periods, written behind, kept while the store fails. */
import { describe, expect, test } from "bun:test";
import { createLedgerBuffer } from "../../../src/adapters/usage/ledger-buffer.ts";
import type { LedgerEntry, UsageStore } from "../../../src/domain/usage/meter.ts";

const periods = { day: "2026-11-14", month: "2026-11" };

/** A store that records what it is asked to write, and fails while `down`. */
function recordingStore() {
  const writes: LedgerEntry[][] = [];
  const store: UsageStore & { down: boolean } = {
    down: false,
    hold: () => Promise.reject(new Error("not used")),
    write(entries) {
      if (this.down) return Promise.reject(new Error("store down"));
      writes.push(structuredClone([...entries]));
      return Promise.resolve();
    },
    read: () => Promise.resolve([]),
    close: () => Promise.resolve(),
  };
  return { store, writes };
}

describe("createLedgerBuffer()", () => {
  test("merges a key's entries into one write per key and periods, keeping every hold to drop", async () => {
    const { store, writes } = recordingStore();
    const buffer = createLedgerBuffer({ store, flushMs: 60_000 });
    for (let i = 0; i < 100; i++) {
      buffer.add({ keyId: "a", periods, counts: { requests: 1, minutes: 5, cacheHits: i % 2 }, holds: [`h${i}`] });
    }
    buffer.add({ keyId: "a", periods, counts: { refused: { quota_exceeded: 1 } } });
    buffer.add({ keyId: "b", periods, counts: { requests: 1 } });
    expect(buffer.waiting).toBe(2);
    await buffer.flush();
    expect(writes).toHaveLength(1);
    const [a, b] = writes[0]!;
    expect(a!.counts).toEqual({ requests: 100, minutes: 500, cacheHits: 50, refused: { quota_exceeded: 1 } });
    expect(a!.holds).toHaveLength(100);
    expect(b!.counts).toEqual({ requests: 1 });
    expect(buffer.waiting).toBe(0);
  });

  test("while the store fails, entries wait (merged with later ones) and are written once it is back; logged once each way", async () => {
    const { store, writes } = recordingStore();
    const events: string[] = [];
    const log = { warn: (event: string) => events.push(event), info: (event: string) => events.push(event) };
    const buffer = createLedgerBuffer({ store, flushMs: 60_000, log });
    store.down = true;
    buffer.add({ keyId: "a", periods, counts: { requests: 1 } });
    await buffer.flush();
    buffer.add({ keyId: "a", periods, counts: { requests: 2 } });
    await buffer.flush();
    expect(buffer.waiting).toBe(1);
    store.down = false;
    await buffer.close();
    expect(writes.map((batch) => batch.map((entry) => entry.counts))).toEqual([[{ requests: 3 }]]);
    expect(events).toEqual(["usage_write_failed", "usage_write_recovered"]);
  });
});
