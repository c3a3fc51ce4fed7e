/** @module Tests of the doctor command in process: exit codes, the table, --json, usage, settings refused. */
import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { runDoctorCli } from "../../../src/app/doctor/doctor-cli.ts";
import { startFakeYoutube } from "../../support/fake/youtube.ts";

const youtube = startFakeYoutube();
afterAll(() => youtube.close());
beforeEach(() => youtube.reset());

async function doctor(args: string[], env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runDoctorCli(args, {
    env: { YOUTUBE_BASE_URL: youtube.origin, YOUTUBE_TIMEOUT_MS: "2000", ...env },
    print: (line) => out.push(line),
    printError: (line) => err.push(line),
  });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

describe("runDoctorCli()", () => {
  test("today's defaults against a YouTube that serves them: exit 0, one row per client, audio per client", async () => {
    const { code, out } = await doctor([]);
    expect(code).toBe(0);
    expect(out).toContain("YouTube: video GJLlxj_dtq8 through 1 route(s) with 3 client(s)");
    expect(out).toMatch(/^direct\s+ANDROID 21\.26\.364\s+captions\s+ok\s+9\s+ok \(3 cues\)\s+HTTP 403$/m);
    expect(out).toMatch(/^direct\s+IOS 21\.26\.4\s+captions\s+ok\s+9\s+ok \(3 cues\)\s+HTTP 403$/m);
    expect(out).toMatch(/^direct\s+VISIONOS 1\.02\s+audio\s+ok\s+9\s+ok \(3 cues\)\s+ok$/m);
    expect(out).toContain("OK: captions read by ANDROID 21.26.364, IOS 21.26.4 on direct");
  });

  test("a route YouTube blocks for every client: exit 1, the route named", async () => {
    youtube.setBlocked(() => "429");
    const { code, out } = await doctor(["--json"]);
    expect(code).toBe(1);
    const report = JSON.parse(out);
    expect(report.ok).toBe(false);
    expect(report.checks[0].rows.map((r: { player: string }) => r.player)).toEqual(["blocked", "blocked", "blocked"]);
    expect(report.checks[0].advice[0]).toStartWith("Route direct is blocked by YouTube");
  });

  test("gated caption tracks for every caption client: exit 1, the fetch answered empty", async () => {
    youtube.setPlayerGate({
      tracks: (_client, tracks) => tracks.map((t) => ({ ...t, baseUrl: `${t.baseUrl}&exp=xpv` })),
    });
    const { code, out } = await doctor(["--json"]);
    expect(code).toBe(1);
    const rows = JSON.parse(out).checks[0].rows as { player: string; captions: string }[];
    expect(rows.map((r) => [r.player, r.captions])).toEqual([["gated", "empty"], ["gated", "empty"], [
      "gated",
      "empty",
    ]]);
  });

  test("--video names the video; a bad id, an unknown option or bad settings are exit 2", async () => {
    expect((await doctor(["--video=F1xioXWb8CY"])).code).toBe(0);
    expect(youtube.seen.every((s) => s.endpoint !== "player" || JSON.parse(s.body!).videoId === "F1xioXWb8CY")).toBe(
      true,
    );
    expect((await doctor(["--video"])).code).toBe(2);
    const unknown = await doctor(["--verbose"]);
    expect([unknown.code, unknown.err]).toEqual([2, expect.stringContaining('Unknown option "--verbose"')]);
    const settings = await doctor([], { YOUTUBE_CLIENTS: "android" });
    expect([settings.code, settings.err]).toEqual([2, expect.stringContaining("YOUTUBE_CLIENTS must list")]);
  });

  test("--help prints the usage, exit 0", async () => {
    const { code, out } = await doctor(["--help"]);
    expect(code).toBe(0);
    expect(out).toContain("Usage: doctor [--video ID] [--json]");
  });

  test("a proxy's credentials never appear: the route is host:port", async () => {
    // A proxy that refuses connections: every call fails, and nothing says who the user is.
    const { out, err } = await doctor([], { YOUTUBE_PROXIES: "http://someone:s3cret-pass@127.0.0.1:9" });
    expect(out).toContain("127.0.0.1:9 ");
    expect(out + err).not.toContain("s3cret-pass");
    expect(out + err).not.toContain("someone");
  });
});
