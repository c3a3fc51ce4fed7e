/** @module Tests of `loadConfig()`: defaults, stream settings, hosts, lists and every bad value reported at once. */
import { describe, expect, test } from "bun:test";
import { ConfigError, loadConfig } from "../../../src/app/config/config.ts";

describe("loadConfig()", () => {
  test("has working defaults for an empty environment", () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.host).toBe("0.0.0.0");
    expect(config.apiKeys).toEqual([]);
    expect(config.youtube.baseUrl).toBe("https://www.youtube.com");
    expect(config.llmApi.model).toBe("openai/gpt-oss-20b");
    expect(config.llmApi.baseUrl).toBe("https://api.groq.com/openai/v1");
    expect(config.youtube.timeoutMs).toBe(10_000);
    expect(config.llm.timeoutMs).toBe(60_000);
    expect(config.requestTimeoutMs).toBe(120_000);
    expect(config.maxBodyBytes).toBe(16_384);
    expect(config.rateLimit).toEqual({ limit: 60, windowSeconds: 60 });
    expect(config.sharedWorkLeaseMs).toBe(5_000);
  });

  test("streams: STREAM_TIMEOUT_MS 600 s and STREAM_KEEPALIVE_MS 15 s by default; a keep-alive over 15 s is refused with the rest", () => {
    expect(loadConfig({}).stream).toEqual({ timeoutMs: 600_000, keepAliveMs: 15_000 });
    expect(loadConfig({ STREAM_TIMEOUT_MS: "900000", STREAM_KEEPALIVE_MS: "200" }).stream).toEqual({
      timeoutMs: 900_000,
      keepAliveMs: 200,
    });
    const error = (() => {
      try {
        loadConfig({ STREAM_TIMEOUT_MS: "soon", STREAM_KEEPALIVE_MS: "20000" });
      } catch (caught) {
        return caught as ConfigError;
      }
    })();
    expect(error?.problems.map((p) => p.split(" ")[0])).toEqual(["STREAM_TIMEOUT_MS", "STREAM_KEEPALIVE_MS"]);
  });

  test("HOST and ADMIN_HOST take IP literals and host names; anything else stops start-up naming the variable", () => {
    for (const host of ["0.0.0.0", "::", "::1", "localhost", "10.1.2.3", "api.internal"]) {
      expect(loadConfig({ HOST: host, ADMIN_PORT: "9100", ADMIN_HOST: host }).host).toBe(host);
    }
    for (const host of ["not a host!", "256.1.1.1", "a/b", "-bad.example"]) {
      const error = (() => {
        try {
          loadConfig({ HOST: host, ADMIN_PORT: "9100", ADMIN_HOST: host });
        } catch (caught) {
          return caught as ConfigError;
        }
      })();
      expect(error?.problems.map((p) => p.split(" ")[0])).toEqual(["HOST", "ADMIN_HOST"]);
    }
  });

  test("MAX_IN_FLIGHT_PER_KEY is half of MAX_IN_FLIGHT by default (at least 1), or as set", () => {
    expect(loadConfig({}).maxInFlightPerKey).toBe(32);
    expect(loadConfig({ MAX_IN_FLIGHT: "9" }).maxInFlightPerKey).toBe(4);
    expect(loadConfig({ MAX_IN_FLIGHT: "1" }).maxInFlightPerKey).toBe(1);
    expect(loadConfig({ MAX_IN_FLIGHT: "8", MAX_IN_FLIGHT_PER_KEY: "8" }).maxInFlightPerKey).toBe(8);
    expect(() => loadConfig({ MAX_IN_FLIGHT_PER_KEY: "0" })).toThrow(/MAX_IN_FLIGHT_PER_KEY/);
  });

  test("reads lists, URLs and rate limits", () => {
    const config = loadConfig({
      API_KEYS: " a, b ,,c ",
      YOUTUBE_BASE_URL: "http://127.0.0.1:9000/ignored/path",
      RATE_LIMIT: "60/min",
      CORS_ORIGINS: "https://app.example",
    });
    expect(config.apiKeys).toEqual(["a", "b", "c"]);
    expect(config.youtube.baseUrl).toBe("http://127.0.0.1:9000");
    expect(config.rateLimit).toEqual({ limit: 60, windowSeconds: 60 });
    expect(config.corsOrigins).toEqual(["https://app.example"]);
  });

  test("RATE_LIMIT is 60/min when unset or blank; none turns it off (any case); a bad one is named", () => {
    expect(loadConfig({}).rateLimit).toEqual({ limit: 60, windowSeconds: 60 });
    expect(loadConfig({ RATE_LIMIT: " " }).rateLimit).toEqual({ limit: 60, windowSeconds: 60 });
    expect(loadConfig({ RATE_LIMIT: "none" }).rateLimit).toBeUndefined();
    expect(loadConfig({ RATE_LIMIT: " None " }).rateLimit).toBeUndefined();
    expect(loadConfig({ RATE_LIMIT: "1000/day" }).rateLimit).toEqual({ limit: 1000, windowSeconds: 86_400 });
    expect(() => loadConfig({ RATE_LIMIT: "unlimited" })).toThrow(
      /RATE_LIMIT must look like 60\/min, 10\/s, 500\/hour or 1000\/day, or be none: current value is "unlimited"/,
    );
  });

  test("QUOTA is every key's default quota: none by default, several comma-separated, a bad one named", () => {
    expect(loadConfig({}).quota).toEqual([]);
    expect(loadConfig({ QUOTA: "60min/day, 1000min/month" }).quota).toEqual([
      { limit: 60, unit: "min", period: "day" },
      { limit: 1000, unit: "min", period: "month" },
    ]);
    expect(() => loadConfig({ QUOTA: "60min/week" })).toThrow(
      /QUOTA: a quota must look such as 600min\/month, .*: current value is "60min\/week"/,
    );
  });

  test("reports every bad value at once, naming each variable", () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: "eighty",
        RATE_LIMIT: "lots",
        YOUTUBE_BASE_URL: "ftp://x",
        LOG_FORMAT: "xml",
        REDIS_URL: "http://secret@host",
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    for (const name of ["PORT", "RATE_LIMIT", "YOUTUBE_BASE_URL", "LOG_FORMAT", "REDIS_URL"]) {
      expect(message).toContain(name);
    }
    expect((error as ConfigError).problems.length).toBe(5);
    expect(message).not.toContain("secret");
  });

  test("quotes the offending value and the accepted range", () => {
    expect(() => loadConfig({ MAX_BODY_BYTES: "0" })).toThrow(
      /MAX_BODY_BYTES must be a whole number from 1024 to 10485760: current value is "0"/,
    );
    expect(() => loadConfig({ SHARED_WORK_LEASE_MS: "5s" })).toThrow(
      /SHARED_WORK_LEASE_MS must be a whole number from 100 to 600000: current value is "5s"/,
    );
  });

  test("ADMIN_PORT turns the admin listener on (127.0.0.1 by default); it must differ from PORT", () => {
    expect(loadConfig({}).admin).toBeUndefined();
    expect(loadConfig({ ADMIN_PORT: "9100" }).admin).toEqual({ port: 9100, host: "127.0.0.1", redisGraceMs: 30_000 });
    expect(loadConfig({ ADMIN_PORT: "0", PORT: "0", ADMIN_HOST: "::1", READINESS_REDIS_GRACE_MS: "5000" }).admin)
      .toEqual({ port: 0, host: "::1", redisGraceMs: 5_000 });
    expect(() => loadConfig({ ADMIN_PORT: "3000" })).toThrow("ADMIN_PORT must differ from PORT: both are 3000");
    expect(() => loadConfig({ ADMIN_PORT: "metrics", READINESS_REDIS_GRACE_MS: "-1" })).toThrow(
      /READINESS_REDIS_GRACE_MS must be a whole number[\s\S]*ADMIN_PORT must be a whole number/,
    );
  });

  test("MCP_PORT turns the MCP listener on (127.0.0.1 by default); it must differ from PORT and ADMIN_PORT", () => {
    expect(loadConfig({}).mcp).toBeUndefined();
    expect(loadConfig({ MCP_PORT: "3100" }).mcp).toEqual({ port: 3100, host: "127.0.0.1" });
    expect(loadConfig({ MCP_PORT: "0", PORT: "0", ADMIN_PORT: "0", MCP_HOST: "0.0.0.0" }).mcp)
      .toEqual({ port: 0, host: "0.0.0.0" });
    expect(() => loadConfig({ MCP_PORT: "3000" })).toThrow("MCP_PORT must differ from PORT: both are 3000");
    expect(() => loadConfig({ MCP_PORT: "9100", ADMIN_PORT: "9100" })).toThrow(
      "MCP_PORT must differ from ADMIN_PORT: both are 9100",
    );
    expect(() => loadConfig({ MCP_PORT: "mcp", MCP_HOST: "not a host!" })).toThrow(
      /MCP_PORT must be a whole number[\s\S]*MCP_HOST/,
    );
  });
});
