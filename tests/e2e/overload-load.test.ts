/** @module End-to-end overload test under load: only 200 or 503, nothing hangs, memory stays bounded. */
import { describe, expect, test } from "bun:test";
import { runLoad } from "../support/overload-load.ts";

describe("overload under load (bounded variant of bench/load-overload.ts)", () => {
  test(
    "100 connections hammering slow upstreams get only 200 or 503 overloaded, none hangs, and memory stays bounded",
    async () => {
      const { rounds, vmHwmMiB } = await runLoad({
        connections: 100,
        seconds: 3,
        rounds: 1,
        maxInFlight: 8,
        llmDelayMs: 500,
        hangMs: 15_000,
      });
      const [round] = rounds;
      expect(round!.hung).toBe(0);
      expect(round!.other).toEqual({});
      expect(round!.ok).toBeGreaterThan(0);
      // At most 8 generations of 0.5 s at once for 3 s, plus those started just before the end.
      expect(round!.ok).toBeLessThanOrEqual(8 * (3 / 0.5 + 2));
      expect(round!.overloaded).toBeGreaterThan(round!.ok);
      expect(round!.p99OverloadedMs).toBeLessThan(2_000);
      expect(vmHwmMiB).toBeGreaterThan(0);
      expect(vmHwmMiB).toBeLessThan(512);
    },
    60_000,
  );
});
