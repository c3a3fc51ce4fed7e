/** @module Benchmark of MCP mode's start-up (spawn to `initialize`, stdin end to exit) against HTTP start-up. */
import { spawn } from "bun";
import { existsSync } from "node:fs";
import { commandFor, ROOT, type Target } from "../tests/support/service-process.ts";
import { startMeasured } from "./support/startup-measure.ts";

const ROUNDS = 7;
const ENV = {
  API_KEYS: "bench-mcp-key-0123456789",
  GROQ_API_KEY: "gsk_bench",
  GROQ_BASE_URL: "http://127.0.0.1:9",
  LOG_FORMAT: "json",
};
const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } },
});

/** Milliseconds from spawn to the `initialize` answer, and from closing stdin to the exit. */
async function mcpOnce(target: Target): Promise<{ readyMs: number; exitMs: number }> {
  const started = performance.now();
  const child = spawn(commandFor(target, ["mcp"]), {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", NO_COLOR: "1", ...ENV },
    stdin: "pipe",
    stdout: "pipe",
    stderr: "ignore",
  });
  child.stdin.write(`${INITIALIZE}\n`);
  await child.stdin.flush();
  const reader = child.stdout.getReader();
  let out = "";
  while (!out.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`${target}: stdout ended before the initialize answer`);
    out += new TextDecoder().decode(value);
  }
  const readyMs = performance.now() - started;
  const closing = performance.now();
  await child.stdin.end();
  const code = await child.exited;
  if (code !== 0) throw new Error(`${target}: exit ${code}`);
  return { readyMs, exitMs: performance.now() - closing };
}

async function httpOnce(target: Target): Promise<number> {
  const measured = await startMeasured(commandFor(target), ENV, { cwd: ROOT, readyPath: "/swagger/json" });
  await measured.stop();
  return measured.startupMs;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const targets: Target[] = existsSync(`${ROOT}dist/video-chat-service`) ? ["binary", "bun", "deno"] : ["bun", "deno"];
if (!targets.includes("binary")) {
  console.log("(no dist/video-chat-service: run `bun run build` to measure the binary too)");
}

console.log(
  `MCP start-up vs HTTP start-up, median of ${ROUNDS} interleaved rounds (noisy shared machine: compare within a row)`,
);
console.log("target  | HTTP spawn → first 200 | MCP spawn → initialize answer | ratio | MCP end of stdin → exit");
for (const target of targets) {
  const http: number[] = [];
  const ready: number[] = [];
  const exit: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    http.push(await httpOnce(target));
    const mcp = await mcpOnce(target);
    ready.push(mcp.readyMs);
    exit.push(mcp.exitMs);
  }
  const [h, r, e] = [median(http), median(ready), median(exit)];
  console.log(
    `${target.padEnd(7)} | ${h.toFixed(1).padStart(8)} ms | ${r.toFixed(1).padStart(8)} ms | ${(r / h).toFixed(2)} | ${
      e.toFixed(1).padStart(7)
    } ms`,
  );
}
