/** @module End-to-end tests that bad settings and a busy port stop start-up with clear messages. */
import { describe, expect, test } from "bun:test";
import { runToExit, targetFromEnv } from "../support/service/process.ts";

describe(`start-up validation (${targetFromEnv()})`, () => {
  test("bad PORT and bad RATE_LIMIT stop start-up with exit code 2, naming both at once", async () => {
    const { code, output } = await runToExit({ API_KEYS: "k-0123456789", PORT: "70000", RATE_LIMIT: "lots" });
    expect(code).toBe(2);
    expect(output).toContain("PORT must be a whole number from 0 to 65535");
    expect(output).toContain('"70000"');
    expect(output).toContain("RATE_LIMIT must look like");
    expect(output).toContain('"lots"');
    expect(output).not.toContain("listening on");
  }, 30_000);

  test("every bad setting is reported in the one message", async () => {
    const { code, output } = await runToExit({
      PORT: "http",
      LOG_FORMAT: "xml",
      SHUTDOWN_GRACE_MS: "-1",
      YOUTUBE_BASE_URL: "ftp://example.com",
      REDIS_URL: "localhost:6379",
    });
    expect(code).toBe(2);
    for (const name of ["PORT", "LOG_FORMAT", "SHUTDOWN_GRACE_MS", "YOUTUBE_BASE_URL", "REDIS_URL"]) {
      expect(output).toContain(name);
    }
    expect(output).toContain("Invalid configuration:");
  }, 30_000);

  test("a port already in use stops start-up with a message naming it, not a stack trace", async () => {
    const taken = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("taken") });
    try {
      const { code, output } = await runToExit({ API_KEYS: "k-0123456789", PORT: String(taken.port) });
      expect(code).toBe(1);
      expect(output).toContain(`Cannot listen on 127.0.0.1:${taken.port}`);
      expect(output).not.toContain("listening on");
    } finally {
      taken.stop(true);
    }
  }, 30_000);
});
