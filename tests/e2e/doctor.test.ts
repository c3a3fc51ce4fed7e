/** @module End-to-end tests of the `doctor` subcommand on every entry point, against the fake YouTube and proxies. */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { spawn } from "bun";
import { type FakeYoutube, startFakeYoutube } from "../support/fake/youtube.ts";
import { type FakeProxy, startFixedProxy } from "../support/fake/proxy.ts";
import { startFakeLlm } from "../support/fake/llm.ts";
import { gptOss20bFreePlan } from "../support/fake/provider-limits.ts";
import { ROOT, runToExit, targetFromEnv } from "../support/service/process.ts";

const SECRET = "doctor-proxy-secret";
let youtube: FakeYoutube;
let proxy: FakeProxy;

beforeAll(async () => {
  youtube = startFakeYoutube();
  proxy = await startFixedProxy("127.0.0.2", `user:${SECRET}`);
});
afterAll(async () => {
  await proxy?.close();
  await youtube?.close();
});
beforeEach(() => youtube.reset());

/** Two routes (direct, and a proxy leaving from 127.0.0.2) and three clients, one of them retired by the fake. */
const env = () => ({
  YOUTUBE_BASE_URL: youtube.origin,
  YOUTUBE_PROXIES: `direct,${proxy.url}`,
  YOUTUBE_CLIENTS: "ANDROID:20.10.38,IOS:21.26.4",
  YOUTUBE_AUDIO_CLIENTS: "VISIONOS:1.02",
  YOUTUBE_TIMEOUT_MS: "2000",
  no_proxy: "127.0.0.1,localhost",
});
const route = () => `127.0.0.1:${proxy.port}`;
const doctor = (args: string[], extra: Record<string, string> = {}) =>
  runToExit({ ...env(), ...extra }, { args: ["doctor", ...args], timeoutMs: 60_000 });

describe(`doctor (${targetFromEnv()})`, () => {
  test("2 routes × 3 clients, direct blocked and ANDROID retired: a table of 6 rows, advice for both, exit 0", async () => {
    youtube.setBlocked((address) => (address === "127.0.0.1" ? "bot-check" : undefined));
    const { code, stdout, output } = await doctor([]);
    expect(code).toBe(0);
    const rows = stdout.split("\n").filter((line) => /^(direct|127\.0\.0\.1:\d+) /.test(line));
    expect(rows).toHaveLength(6);
    const row = (route: string, client: string) => rows.find((r) => r.startsWith(`${route} `) && r.includes(client))!;
    for (const client of ["ANDROID 20.10.38", "IOS 21.26.4", "VISIONOS 1.02"]) {
      expect(row("direct", client)).toMatch(/\bblocked\b/);
    }
    expect(row(route(), "ANDROID 20.10.38")).toMatch(/captions\s+retired\s/);
    expect(row(route(), "IOS 21.26.4")).toMatch(/captions\s+ok\s+9\s+ok \(3 cues\)\s+HTTP 403$/);
    expect(row(route(), "VISIONOS 1.02")).toMatch(/audio\s+ok\s+9\s+ok \(3 cues\)\s+ok$/);
    expect(stdout).toContain(`OK: captions read by IOS 21.26.4 on ${route()}`);
    expect(stdout).toContain(
      "YouTube refuses ANDROID 20.10.38 as retired: set YOUTUBE_CLIENTS=ANDROID:21.26.364,IOS:21.26.4",
    );
    expect(stdout).toContain("Route direct is blocked by YouTube");
    expect(output).not.toContain(SECRET);
    // It asked through the proxy, with the clients' own identities.
    expect(youtube.seen.filter((s) => s.address === "127.0.0.2" && s.endpoint === "player").map((s) => s.client))
      .toEqual(["ANDROID", "IOS", "VISIONOS"]);
  });

  test("every client retired: exit 1, naming what to change", async () => {
    youtube.setRetirement({
      ANDROID: { current: "22", form: "400" },
      IOS: { current: "22", form: "unsupported" },
      VISIONOS: { current: "2", form: "latest-version" },
    });
    const { code, stdout, output } = await doctor([], { YOUTUBE_PROXIES: "direct" });
    expect(code).toBe(1);
    expect(stdout).toContain("FAIL: no route and client of YOUTUBE_CLIENTS read captions");
    expect(stdout).toMatch(/YouTube refuses ANDROID 20\.10\.38 as retired: set YOUTUBE_CLIENTS=ANDROID:21\.26\.364,/);
    expect(stdout).toMatch(/YouTube refuses IOS 21\.26\.4 as retired: set YOUTUBE_CLIENTS=\S+,IOS:<newer version>/);
    expect(stdout).toContain(
      "YouTube refuses VISIONOS 1.02 as retired: set YOUTUBE_AUDIO_CLIENTS=VISIONOS:<newer version>",
    );
    expect(stdout).toContain("yt_dlp/extractor/youtube/_base.py");
    expect(output).not.toContain(SECRET);
  });

  test("--json parses: each check with its rows, the verdict and the advice", async () => {
    const { code, stdout } = await doctor(["--json", "--video", "F1xioXWb8CY"]);
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    expect(report.ok).toBe(true);
    expect(report.checks.map((c: { name: string }) => c.name)).toEqual(["youtube", "llm"]);
    // Without an LLM key the offline engine answers: nothing to ask, and the check passes.
    expect(report.checks[1]).toMatchObject({ ok: true, rows: [{ model: "offline engine" }] });
    const [check] = report.checks;
    expect(check.rows).toHaveLength(6);
    expect(check.rows[0]).toMatchObject({
      route: "direct",
      client: "ANDROID 20.10.38",
      use: "captions",
      player: "retired",
    });
    expect(check.rows.find((r: { client: string }) => r.client === "IOS 21.26.4")).toMatchObject({
      player: "ok",
      tracks: 2,
      captions: "ok (3 cues)",
    });
    expect(check.advice.join("\n")).toContain("YOUTUBE_CLIENTS=ANDROID:21.26.364,IOS:21.26.4");
    expect(new Set(youtube.seen.filter((s) => s.endpoint === "player").map((s) => JSON.parse(s.body!).videoId)))
      .toEqual(new Set(["F1xioXWb8CY"]));
  });

  test("bad usage is exit 2 with the usage; so is an unknown subcommand", async () => {
    const bad = await doctor(["--video", "not-an-id"]);
    expect(bad.code).toBe(2);
    expect(bad.output).toContain("--video needs a YouTube video id");
    const unknown = await runToExit(env(), { args: ["doctr"] });
    expect(unknown.code).toBe(2);
    expect(unknown.output).toContain('Unknown subcommand "doctr"');
  });

  test.skipIf(targetFromEnv() !== "bun")("`bun run doctor` runs the same command", async () => {
    const child = spawn([process.execPath, "run", "--cwd", ROOT, "doctor", "--json"], {
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", ...env(), YOUTUBE_PROXIES: "direct" },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [stdout, code] = await Promise.all([new Response(child.stdout).text(), child.exited]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout.slice(stdout.indexOf("{"))).checks[0].rows).toHaveLength(3);
  });

  test("the LLM endpoint: the configured model listed and answering passes; a retired one fails, naming the setting", async () => {
    const llm = startFakeLlm();
    try {
      const keyed = { GROQ_API_KEY: "gsk_doctor_secret", GROQ_BASE_URL: llm.baseUrl, YOUTUBE_PROXIES: "direct" };
      const fine = await doctor([], { ...keyed, YOUTUBE_CLIENTS: "IOS:21.26.4" });
      expect(fine.code).toBe(0);
      expect(fine.stdout).toMatch(
        /openai\/gpt-oss-20b\s+yes\s+131072\s+ok\s+8000 tokens\/min|openai\/gpt-oss-20b\s+yes\s+131072\s+ok/,
      );
      expect(llm.calls.at(-1)!.reasoning).toEqual({ effort: "low", include: false, format: undefined });
      const retired = await doctor(["--json"], {
        ...keyed,
        YOUTUBE_CLIENTS: "IOS:21.26.4",
        GROQ_MODEL: "llama-3.1-8b-instant",
      });
      expect(retired.code).toBe(1);
      const check = JSON.parse(retired.stdout).checks[1];
      expect(check).toMatchObject({ name: "llm", ok: false, rows: [{ model: "llama-3.1-8b-instant", listed: "no" }] });
      expect(check.advice.join("\n")).toContain(
        "set GROQ_MODEL (or LLM_MODEL) to a model it serves, such as openai/gpt-oss-20b",
      );
      expect(retired.output).not.toContain("gsk_doctor_secret");
    } finally {
      await llm.close();
    }
  });

  test("a chain of models: every model is listed, called once and its day's requests left shown; one retired fails", async () => {
    const llm = startFakeLlm({ limits: { ...gptOss20bFreePlan(60_000), requestsPerDay: 1_000 } });
    try {
      const report = await doctor(["--json"], {
        GROQ_API_KEY: "gsk_doctor_secret",
        GROQ_BASE_URL: llm.baseUrl,
        YOUTUBE_PROXIES: "direct",
        YOUTUBE_CLIENTS: "IOS:21.26.4",
        LLM_MODELS: "openai/gpt-oss-20b,llama-3.1-8b-instant,openai/gpt-oss-120b",
      });
      expect(report.code).toBe(1);
      const check = JSON.parse(report.stdout).checks[1];
      expect(
        check.rows.map((row: { model: string; listed: string; call: string }) => [row.model, row.listed, row.call]),
      )
        .toEqual([
          ["openai/gpt-oss-20b", "yes", "ok"],
          ["llama-3.1-8b-instant", "no", "HTTP 404: model not served"],
          ["openai/gpt-oss-120b", "yes", "ok"],
        ]);
      expect(check.rows[0].limits).toContain("left today");
      expect(check.advice.join("\n")).toContain("set LLM_MODELS to a model it serves");
      expect(llm.calls.map((c) => c.model).sort()).toEqual([
        "llama-3.1-8b-instant",
        "openai/gpt-oss-120b",
        "openai/gpt-oss-20b",
      ]);
    } finally {
      await llm.close();
    }
  });
});
