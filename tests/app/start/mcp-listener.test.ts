/** @module Tests of the MCP listener at start-up: banner, its own port, the public port's 404, shutdown, a port in use. */
import { describe, expect, test } from "bun:test";
import { runService } from "../../../src/app/start/start.ts";
import { fakeRuntime as fakeWithListeners } from "../../support/fake/runtime.ts";

const KEY = "k-0123456789";
const MCP_PORT = 3100;

/** The fake runtime with the MCP listener (port 3100) named apart. */
const fakeRuntime = (env: Record<string, string>) => fakeWithListeners(env, { [MCP_PORT]: "mcp" }, "public");

const initialize = (port: number, path = "/mcp") =>
  new Request(`http://127.0.0.1:${port}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "x-api-key": KEY },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    }),
  });

describe("runService() with MCP_PORT", () => {
  test("serves /mcp on its own listener (banner line), the public port's limits, 404 on the public port", async () => {
    const fake = fakeRuntime({ API_KEYS: KEY, PORT: "0", HOST: "127.0.0.1", MCP_PORT: String(MCP_PORT) });
    await runService(fake.runtime);
    expect(fake.printedLines()).toContain(
      `  MCP:         http://127.0.0.1:${MCP_PORT}/mcp (Streamable HTTP; API key in x-api-key or Authorization: Bearer)`,
    );
    const mcp = fake.served.get("mcp")!;
    expect(mcp).toMatchObject({ host: "127.0.0.1", maxBodyBytes: 16_384, headersTimeoutMs: 10_000 });
    const answer = await mcp.fetch(initialize(MCP_PORT));
    expect(answer.status).toBe(200);
    expect(mcp.streamEnded?.(answer)).toBeInstanceOf(Promise);
    expect(await answer.text()).toContain('"protocolVersion"');
    expect((await fake.served.get("public")!.fetch(initialize(4321))).status).toBe(404);
    fake.send("SIGTERM");
    expect(await fake.exited).toBe(0);
    expect(fake.events.sort()).toEqual(["mcp stop", "public stop"]);
  });

  test("without MCP_PORT there is no MCP listener", async () => {
    const fake = fakeRuntime({ API_KEYS: KEY, PORT: "0", HOST: "127.0.0.1" });
    await runService(fake.runtime);
    expect(fake.served.has("mcp")).toBe(false);
    expect(fake.printed.join("\n")).not.toContain("MCP:");
    fake.send("SIGTERM");
    expect(await fake.exited).toBe(0);
  });

  test("an MCP port that cannot be bound exits 1 naming MCP_PORT, and the public listener is closed", async () => {
    const fake = fakeRuntime({ API_KEYS: KEY, PORT: "0", HOST: "127.0.0.1", MCP_PORT: "1" });
    await expect(runService(fake.runtime)).rejects.toThrow("exit 1");
    expect(fake.errors[0]).toStartWith("Cannot listen on 127.0.0.1:1: ");
    expect(fake.errors[0]).toContain("set MCP_PORT or MCP_HOST");
    expect(fake.events).toEqual(["public abort"]);
  });
});
