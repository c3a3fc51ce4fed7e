/** @module Tests of routed-transcript-source.ts: one route per try, rotation on block, breakers, Retry-After. */
import { describe, expect, test } from "bun:test";
import { AppError } from "../../../src/domain/errors.ts";
import type { Transcript } from "../../../src/domain/transcript.ts";
import { createMemoryRouteStates, createRouteBreaker } from "../../../src/adapters/youtube/route-breaker.ts";
import {
  createRoutedTranscriptSource,
  type EgressRoute,
} from "../../../src/adapters/youtube/routed-transcript-source.ts";
import type { YoutubeTransport } from "../../../src/adapters/youtube/transport.ts";

const transcript = { videoId: "v", language: "en", isGenerated: false, isTranslated: false, cues: [] } as Transcript;
const blocked = () => new AppError("upstream_blocked", "blocked", { retryAfterSeconds: 60 });

/** Routes whose transports say which route they are; `outcome` decides each try by route label. */
function rig(
  labels: string[],
  outcome: (label: string) => "ok" | "blocked" | "gone",
  options: { retries?: number; failures?: number } = {},
) {
  // "direct" is the one route a new connection cannot move to a new address.
  const tries: string[] = [];
  const routes: EgressRoute[] = labels.map((label) => ({
    label,
    key: label,
    renews: label !== "direct",
    open: () => ({ transport: { label } as unknown as YoutubeTransport, close() {} }),
  }));
  const breaker = createRouteBreaker({
    store: createMemoryRouteStates(),
    failures: options.failures ?? 3,
    cooldownMs: 90_000,
    trialLeaseMs: 1_000,
  });
  const source = createRoutedTranscriptSource({
    routes,
    breaker,
    blockRetries: options.retries ?? 3,
    async read(transport) {
      const label = (transport as unknown as { label: string }).label;
      tries.push(label);
      const result = outcome(label);
      if (result === "blocked") throw blocked();
      if (result === "gone") throw new AppError("video_unavailable", "gone");
      return transcript;
    },
  });
  return { source, tries, breaker };
}

const query = { languages: ["en"], translate: false };

describe("createRoutedTranscriptSource()", () => {
  test("an upstream_blocked that isBlock disowns ends the fetch where it is: no other route, no block counted", async () => {
    const tries: string[] = [];
    const routes: EgressRoute[] = ["a", "b"].map((label) => ({
      label,
      key: label,
      renews: true,
      open: () => ({ transport: {} as YoutubeTransport, close() {} }),
    }));
    const breaker = createRouteBreaker({
      store: createMemoryRouteStates(),
      failures: 1,
      cooldownMs: 90_000,
      trialLeaseMs: 1_000,
    });
    const other = new AppError("upstream_blocked", "the speech service is rate-limiting", { retryAfterSeconds: 7 });
    const outcomes: string[] = [];
    const source = createRoutedTranscriptSource({
      routes,
      breaker,
      blockRetries: 3,
      isBlock: (error) => error !== other,
      observe: (_, outcome) => outcomes.push(outcome),
      async read() {
        tries.push("try");
        throw other;
      },
    });
    await expect(source.fetch("v", query)).rejects.toBe(other);
    expect(tries).toEqual(["try"]);
    expect(outcomes).toEqual(["other"]);
    expect(await breaker.admit("a")).toEqual({ ok: true, trial: false });
  });

  test("spreads fetches over the routes in turn", async () => {
    const { source, tries } = rig(["a", "b", "c"], () => "ok");
    for (let i = 0; i < 6; i++) await source.fetch("v", query);
    expect(tries).toEqual(["a", "b", "c", "a", "b", "c"]);
  });

  test("a block moves the fetch to the next route and reports each try", async () => {
    const { source, tries } = rig(["a", "b"], (l) => (l === "a" ? "blocked" : "ok"));
    const seen: [string, number][] = [];
    await source.fetch("v", { ...query, observer: { route: (route, retries) => seen.push([route, retries]) } });
    expect(tries).toEqual(["a", "b"]);
    expect(seen).toEqual([["a", 0], ["b", 1]]);
  });

  test("at most blockRetries more tries, then upstream_blocked", async () => {
    const { source, tries } = rig(["a"], () => "blocked", { retries: 2, failures: 10 });
    await expect(source.fetch("v", query)).rejects.toMatchObject({ code: "upstream_blocked" });
    expect(tries).toEqual(["a", "a", "a"]);
  });

  test("direct is never tried twice for one fetch: it would leave from the same address", async () => {
    const { source, tries } = rig(["direct", "a"], () => "blocked", { retries: 3, failures: 10 });
    await expect(source.fetch("v", query)).rejects.toMatchObject({ code: "upstream_blocked" });
    expect(tries).toEqual(["direct", "a", "a", "a"]);
  });

  test("no retry after the deadline", async () => {
    const { source, tries } = rig(["a", "b"], () => "blocked", { failures: 10 });
    await expect(source.fetch("v", { ...query, deadline: Date.now() - 1 })).rejects.toMatchObject({
      code: "upstream_blocked",
    });
    expect(tries).toEqual(["a"]);
  });

  test("an unavailable video is one try, never retried, and leaves the breaker alone", async () => {
    const { source, tries } = rig(["a", "b"], () => "gone", { failures: 1 });
    await expect(source.fetch("v", query)).rejects.toMatchObject({ code: "video_unavailable" });
    expect(tries).toEqual(["a"]);
    await source.fetch("v", query).catch(() => {});
    expect(tries).toEqual(["a", "b"]);
  });

  test("every breaker open: upstream_blocked at once with a Retry-After, no try", async () => {
    const { source, tries } = rig(["a", "b"], () => "blocked", { failures: 1 });
    // The fetch that opened the last breaker also tells the earliest trial (the 90 s cool-down), not the block's own 60 s.
    const opening = await source.fetch("v", query).catch((e) => e);
    expect(opening).toMatchObject({ code: "upstream_blocked", message: "blocked" });
    expect(opening.retryAfterSeconds).toBe(90);
    const before = tries.length;
    const error = await source.fetch("v", query).catch((e) => e);
    expect(error).toMatchObject({ code: "upstream_blocked" });
    expect(error.retryAfterSeconds).toBeGreaterThanOrEqual(89);
    expect(tries.length).toBe(before);
  });
});
