/** @module Tests of YOUTUBE_PROXIES and the routes' settings: parsing, defaults, refusals without secrets. */
import { describe, expect, test } from "bun:test";
import { loadConfig } from "../../../src/app/config/config.ts";
import { configProblems } from "../../support/config/problems.ts";
import { routeLabel } from "../../../src/app/config/youtube-routes.ts";

describe("YOUTUBE_PROXIES", () => {
  test("defaults to HTTPS_PROXY, else direct; lists routes in order with their settings' defaults", () => {
    expect(loadConfig({}).youtube).toMatchObject({
      routes: ["direct"],
      blockRetries: 3,
      routeFailures: 3,
      routeCooldownMs: 300_000,
    });
    expect(loadConfig({ HTTPS_PROXY: "http://u:p@proxy:8080" }).youtube.routes).toEqual(["http://u:p@proxy:8080"]);
    const env = { HTTPS_PROXY: "http://ignored:1", YOUTUBE_PROXIES: "DIRECT, http://u:p@a:1 ,https://b:2" };
    expect(loadConfig(env).youtube.routes).toEqual(["direct", "http://u:p@a:1", "https://b:2"]);
  });

  test("a SOCKS entry is refused with a clear message, other bad entries too, all at once, never echoing credentials", () => {
    const found = configProblems({
      YOUTUBE_PROXIES: "direct,socks5://user:hunter2@h:1080,ftp://user:hunter2@h:21,not a url",
      YOUTUBE_BLOCK_RETRIES: "-1",
    });
    expect(found).toHaveLength(4);
    expect(found[0]).toContain("entry 2 is a SOCKS proxy, which Bun's fetch does not support");
    expect(found[1]).toContain("entry 3 must be direct or an http:// or https:// proxy URL");
    expect(found[2]).toContain("entry 4 must be direct or a proxy URL");
    expect(found[3]).toContain("YOUTUBE_BLOCK_RETRIES");
    expect(found.join("\n")).not.toContain("hunter2");
  });

  test("a bad HTTPS_PROXY is named without its value, which may hold credentials", () => {
    const found = configProblems({ HTTPS_PROXY: "nonsense://user:hunter2@x" });
    expect(found).toEqual([
      "HTTPS_PROXY must be an http or https URL: its value is not shown, as it may hold credentials",
    ]);
  });

  test("a {session} placeholder in the user name is accepted", () => {
    expect(loadConfig({ YOUTUBE_PROXIES: "http://user-session-{session}:pass@gate:7000" }).youtube.routes).toEqual([
      "http://user-session-{session}:pass@gate:7000",
    ]);
  });

  test("an empty list is refused", () => {
    expect(configProblems({ YOUTUBE_PROXIES: " , " })[0]).toContain("at least one route");
  });

  test("a route's label is direct or host:port, never credentials", () => {
    expect(routeLabel("direct")).toBe("direct");
    expect(routeLabel("http://user:pass@proxy.example:8080")).toBe("proxy.example:8080");
    expect(routeLabel("https://user:pass@proxy.example")).toBe("proxy.example:443");
    expect(routeLabel("http://proxy.example")).toBe("proxy.example:80");
    expect(routeLabel("http://user-session-{session}:pass@gate.example:7000")).toBe("gate.example:7000");
  });
});
