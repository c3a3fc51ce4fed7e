/** @module The MCP stdio runner on in-memory streams: what goes to stdout and stderr, and when it exits. */
import { describe, expect, test } from "bun:test";
import { PassThrough } from "node:stream";
import { type McpRuntime, runMcp } from "../../../src/app/mcp/serve-stdio.ts";

class Exit extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}

/** A runtime whose stdio are in-memory streams; exit records its code (a failing one throws, as start-up must stop). */
function fakeRuntime(env: Record<string, string>) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const errors: string[] = [];
  let out = "";
  stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  const exited = Promise.withResolvers<number>();
  const runtime: McpRuntime = {
    name: "Fake 1.0",
    env,
    stdin,
    stdout,
    printError: (line) => errors.push(line),
    exit: (code) => {
      exited.resolve(code);
      if (code !== 0) throw new Exit(code);
      return undefined as never;
    },
    onStopSignal: () => {},
  };
  return { runtime, stdin, stdoutStream: stdout, errors, exited: exited.promise, stdout: () => out };
}

describe("runMcp", () => {
  test("answers JSON-RPC on stdout, logs on stderr only, and exits 0 once stdin ends", async () => {
    const fake = fakeRuntime({ KEYS_FILE: "/nonexistent/keys.json" });
    await runMcp(fake.runtime);
    fake.stdin.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
    while (!fake.stdout().includes("\n")) await Bun.sleep(5);
    fake.stdin.end();
    expect(await fake.exited).toBe(0);
    expect(fake.stdout()).toBe('{"result":{},"jsonrpc":"2.0","id":1}\n');
    const events = fake.errors.join("\n").split("\n").map((line) => JSON.parse(line).event);
    expect(events).toEqual(["mcp_ready", "mcp_stopping"]);
  });

  test("a broken stdout (the client went away, stdin still open) stops it with exit 0", async () => {
    const fake = fakeRuntime({ KEYS_FILE: "/nonexistent/keys.json" });
    await runMcp(fake.runtime);
    fake.stdoutStream.emit("error", Object.assign(new Error("write EPIPE"), { code: "EPIPE" }));
    expect(await fake.exited).toBe(0);
    expect(fake.errors.join("\n")).toContain('"reason":"stdout closed"');
  });

  test("wrong settings: every problem on stderr, exit 2, nothing on stdout", async () => {
    const fake = fakeRuntime({ REQUEST_TIMEOUT_MS: "soon", RATE_LIMIT: "lots" });
    await expect(runMcp(fake.runtime)).rejects.toThrow(Exit);
    expect(await fake.exited).toBe(2);
    expect(fake.errors.join("\n")).toContain("REQUEST_TIMEOUT_MS");
    expect(fake.errors.join("\n")).toContain("RATE_LIMIT");
    expect(fake.stdout()).toBe("");
  });
});
