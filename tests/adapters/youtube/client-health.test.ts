/** @module Tests of client-health.ts: what a failed call says of its client, per-client state, one try's trail. */
import { describe, expect, test } from "bun:test";
import { clientAnswer, ClientTrail, createClientHealth } from "../../../src/adapters/youtube/client-health.ts";
import { innertubeClients } from "../../../src/adapters/youtube/innertube-clients.ts";
import { retiredClient } from "../../../src/adapters/youtube/retired-client.ts";
import { unreadable } from "../../../src/adapters/youtube/unreadable.ts";
import { AppError } from "../../../src/domain/errors.ts";

const [android, ios] = innertubeClients([{ name: "ANDROID", version: "20.10.38" }, {
  name: "IOS",
  version: "21.26.4",
}]);

describe("clientAnswer()", () => {
  test("names each failure as the log and the doctor do", () => {
    expect(clientAnswer(retiredClient(android, "HTTP 400"))).toBe("retired");
    expect(clientAnswer(unreadable("a player response", "not JSON"))).toBe("unreadable");
    expect(clientAnswer(new AppError("upstream_blocked", "bot check"))).toBe("blocked");
    expect(clientAnswer(new AppError("upstream_timeout", "slow"))).toBe("timeout");
    expect(clientAnswer(new AppError("video_unavailable", "gone"))).toBe("unavailable");
    expect(clientAnswer(new AppError("video_age_restricted", "age"))).toBe("unavailable");
    expect(clientAnswer(new AppError("upstream_error", "HTTP 500"))).toBe("error");
  });
});

describe("createClientHealth()", () => {
  test("every configured client is up until YouTube refuses it as retired, and up again once served", () => {
    const health = createClientHealth([android!, ios!, android!]);
    expect(health.snapshot()).toEqual([
      { client: "ANDROID", version: "20.10.38", up: true },
      { client: "IOS", version: "21.26.4", up: true },
    ]);
    health.note(android!, "retired");
    health.note(ios!, "blocked");
    expect(health.snapshot().map((c) => c.up)).toEqual([false, true]);
    expect(health.current([android!, ios!])).toBe(ios);
    health.note(android!, "ok");
    expect(health.current([android!, ios!])).toBe(android);
    health.note(android!, "retired");
    health.note(ios!, "retired");
    expect(health.current([android!, ios!])).toBeUndefined();
  });
});

describe("ClientTrail", () => {
  test("keeps one try's answers by client name and its retired clients once, and tells the health record", () => {
    const health = createClientHealth([android!, ios!]);
    const trail = new ClientTrail(health);
    trail.note(android!, "retired");
    trail.note(android!, "retired");
    trail.note(ios!, "ok");
    expect(trail.answers).toEqual({ ANDROID: "retired", IOS: "ok" });
    expect(trail.retired).toEqual([android!]);
    expect([trail.isRetired(android!), trail.isRetired(ios!)]).toEqual([true, false]);
    expect(health.snapshot().map((c) => c.up)).toEqual([false, true]);
  });
});
