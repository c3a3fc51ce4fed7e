/** @module Tests of the brief memory of verified keys whose every request is held in Redis. */
import { describe, expect, test } from "bun:test";
import { rememberHeldKeys } from "../../../src/adapters/keys/held-keys-memory.ts";
import type { ApiKeys, KeyIdentity } from "../../../src/domain/ports.ts";

const METERED: KeyIdentity = { id: "key_metered", name: "metered" };
const PLAIN: KeyIdentity = { id: "key_plain", name: "plain" };

function rig() {
  const clock = { now: 1_000 };
  const asked: string[] = [];
  const issued = new Map([["metered-key", METERED], ["plain-key", PLAIN]]);
  const source: ApiKeys = { verify: async (key) => (asked.push(key), issued.get(key)) };
  const keys = rememberHeldKeys(source, {
    held: (identity) => identity.id === METERED.id,
    digest: (key) => `digest:${key}`,
    ttlMs: 5_000,
    now: () => clock.now,
  });
  return { keys, asked, issued, clock };
}

describe("rememberHeldKeys()", () => {
  test("a held key is asked once per 5 s; a key without holds and an unknown key are asked every time", async () => {
    const { keys, asked, clock } = rig();
    for (let i = 0; i < 3; i++) {
      expect(await keys.verify("metered-key")).toEqual(METERED);
      expect(await keys.verify("plain-key")).toEqual(PLAIN);
      expect(await keys.verify("unknown")).toBeUndefined();
    }
    expect(asked.filter((key) => key === "metered-key")).toHaveLength(1);
    expect(asked.filter((key) => key === "plain-key")).toHaveLength(3);
    expect(asked.filter((key) => key === "unknown")).toHaveLength(3);
    clock.now += 5_000;
    await keys.verify("metered-key");
    expect(asked.filter((key) => key === "metered-key")).toHaveLength(2);
  });

  test("a key gone from the store is forgotten once asked again, not remembered as known", async () => {
    const { keys, issued, clock } = rig();
    expect(await keys.verify("metered-key")).toEqual(METERED);
    issued.delete("metered-key");
    clock.now += 5_001;
    expect(await keys.verify("metered-key")).toBeUndefined();
    expect(await keys.verify("metered-key")).toBeUndefined();
  });
});
