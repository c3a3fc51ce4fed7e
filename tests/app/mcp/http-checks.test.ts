/** @module Tests of what `/mcp` reads before any MCP message: the key's two headers, the session id, cancellations. */
import { describe, expect, test } from "bun:test";
import { cancelledIds, hasInitialize, keyOf, sessionOf } from "../../../src/app/mcp/http-checks.ts";

const request = (headers: Record<string, string>) => new Request("http://mcp.test/mcp", { method: "POST", headers });

describe("keyOf()", () => {
  test("reads x-api-key, else Authorization: Bearer in any case; x-api-key wins when both are sent", () => {
    expect(keyOf(request({ "x-api-key": " k-1 " }))).toBe("k-1");
    expect(keyOf(request({ authorization: "Bearer k-2" }))).toBe("k-2");
    expect(keyOf(request({ authorization: "bearer   k-3 " }))).toBe("k-3");
    expect(keyOf(request({ "x-api-key": "k-1", authorization: "Bearer k-2" }))).toBe("k-1");
  });

  test("finds no key in another scheme, a bare token, or an empty header", () => {
    expect(keyOf(request({ authorization: "Basic dXNlcjpwYXNz" }))).toBeUndefined();
    expect(keyOf(request({ authorization: "k-2" }))).toBeUndefined();
    expect(keyOf(request({ authorization: "Bearer two words" }))).toBeUndefined();
    expect(keyOf(request({ "x-api-key": "  " }))).toBeUndefined();
    expect(keyOf(request({}))).toBeUndefined();
  });
});

describe("sessionOf()", () => {
  test("takes a session id of visible ASCII, and none when none was sent", () => {
    expect(sessionOf(request({ "mcp-session-id": "0f9a-4c1e" }))).toBe("0f9a-4c1e");
    expect(sessionOf(request({}))).toBeUndefined();
  });

  test("refuses one with spaces or over 128 characters as invalid_request", () => {
    expect(() => sessionOf(request({ "mcp-session-id": "a b" }))).toThrow("1 to 128 visible ASCII characters");
    expect(() => sessionOf(request({ "mcp-session-id": "x".repeat(129) }))).toThrow("visible ASCII");
  });
});

describe("the body's messages", () => {
  test("hasInitialize() finds an initialize request alone or in a batch, not a notification of that name", () => {
    expect(hasInitialize([{ jsonrpc: "2.0", id: 1, method: "initialize", params: {} }])).toBe(true);
    expect(hasInitialize([{ jsonrpc: "2.0", method: "initialize" }, "x", null])).toBe(false);
  });

  test("cancelledIds() lists the request ids of notifications/cancelled, string or number", () => {
    expect(
      cancelledIds([
        { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 4, reason: "user" } },
        { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "a" } },
        { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: { id: 1 } } },
        { jsonrpc: "2.0", id: 5, method: "tools/call", params: {} },
      ]),
    ).toEqual([4, "a"]);
  });
});
