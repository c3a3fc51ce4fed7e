/** @module Tests of a tool call's admission: counted against its caller, refused past the limit, given back. */
import { describe, expect, test } from "bun:test";
import { silentLogger } from "../../../src/app/log/logger.ts";
import { admitCall, giveBackCall, MCP_IDENTITY } from "../../../src/app/mcp/admission.ts";
import { CountingLimiter } from "../../support/fake/ports.ts";

const KEY = { id: "key_0123456789ab", name: "agents" };

describe("admitCall()", () => {
  test("counts each call against its caller, and refuses the one past the limit with the retry time", async () => {
    const deps = { rateLimiter: new CountingLimiter(1), logger: silentLogger };
    await admitCall(deps, KEY);
    await expect(admitCall(deps, KEY)).rejects.toMatchObject({
      code: "rate_limited",
      message: "This API key is over its rate limit",
      retryAfterSeconds: 60,
    });
    await expect(admitCall(deps, MCP_IDENTITY)).resolves.toBeUndefined();
    await expect(admitCall(deps, MCP_IDENTITY)).rejects.toMatchObject({
      message: "MCP calls are over their rate limit (RATE_LIMIT)",
    });
    expect(Object.fromEntries(deps.rateLimiter.counts)).toEqual({ [KEY.id]: 2, [MCP_IDENTITY.id]: 2 });
  });

  test("giveBackCall() returns a call to its caller's budget, and a limiter that fails is only logged", async () => {
    const deps = { rateLimiter: new CountingLimiter(1), logger: silentLogger };
    await admitCall(deps, KEY);
    await giveBackCall(deps, KEY);
    await expect(admitCall(deps, KEY)).resolves.toBeUndefined();
    const warned: string[] = [];
    const failing = {
      rateLimiter: { take: () => Promise.reject(new Error("Redis down")) },
      logger: { ...silentLogger, warn: (event: string) => void warned.push(event) },
    };
    await giveBackCall(failing, KEY);
    expect(warned).toEqual(["rate_limit_settle_failed"]);
  });
});
