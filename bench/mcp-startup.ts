/** @module Benchmark of MCP mode's start-up per target, against HTTP start-up and (`--before=DIR`) another checkout. */
import { spawn } from "bun";
import { existsSync, statSync } from "node:fs";
import { commandFor, ROOT, type Target } from "../tests/support/service/process.ts";
import { startMeasured } from "./support/startup-measure.ts";

const ROUNDS = 7;
const ENV = {
  API_KEYS: "bench-mcp-key-0123456789",
  GROQ_API_KEY: "gsk_bench",
  GROQ_BASE_URL: "http://127.0.0.1:9",
  LOG_FORMAT: "json",
};
/** The 2025-era opening: the `initialize` handshake. */
const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1" } },
});
/** The 2026-07-28 opening: `server/discover`, the revision and the client in `_meta`. */
const DISCOVER = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "server/discover",
  params: {
    _meta: {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1" },
      "io.modelcontextprotocol/clientCapabilities": {},
    },
  },
});

const before = process.argv.find((arg) => arg.startsWith("--before="))?.slice("--before=".length).replace(/\/?$/, "/");

/** The command of `target` in the checkout at `root` (this one, or `--before`'s). */
function mcpCommand(target: Target, root: string): string[] {
  if (root === ROOT) return commandFor(target, ["mcp"]);
  if (target === "binary") return [`${root}dist/video-chat-service`, "mcp"];
  if (target === "deno") return [`${root}node_modules/.bin/deno`, "task", "--cwd", root, "server", "mcp"];
  return [process.execPath, "run", "--cwd", root, "server", "mcp"];
}

/** Milliseconds from spawn to the answer to `opening`, and from closing stdin to the exit. */
async function mcpOnce(command: string[], cwd: string, opening: string): Promise<{ readyMs: number; exitMs: number }> {
  const started = performance.now();
  const child = spawn(command, {
    cwd,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", NO_COLOR: "1", ...ENV },
    stdin: "pipe",
    stdout: "pipe",
    stderr: "ignore",
  });
  child.stdin.write(`${opening}\n`);
  await child.stdin.flush();
  const reader = child.stdout.getReader();
  let out = "";
  while (!out.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`${command.join(" ")}: stdout ended before the answer`);
    out += new TextDecoder().decode(value);
  }
  const answer = JSON.parse(out.slice(0, out.indexOf("\n")));
  if (!answer.result) throw new Error(`${command.join(" ")}: no result: ${out.slice(0, 300)}`);
  const readyMs = performance.now() - started;
  const closing = performance.now();
  await child.stdin.end();
  const code = await child.exited;
  if (code !== 0) throw new Error(`${command.join(" ")}: exit ${code}`);
  return { readyMs, exitMs: performance.now() - closing };
}

async function httpOnce(target: Target): Promise<number> {
  const measured = await startMeasured(commandFor(target), ENV, { cwd: ROOT, readyPath: "/swagger/json" });
  await measured.stop();
  return measured.startupMs;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ms = (value: number): string => `${value.toFixed(1).padStart(7)} ms`;
const targets: Target[] = existsSync(`${ROOT}dist/video-chat-service`) ? ["binary", "bun", "deno"] : ["bun", "deno"];
if (!targets.includes("binary")) {
  console.log("(no dist/video-chat-service: run `bun run build` to measure the binary too)");
}
if (before && !existsSync(before)) throw new Error(`--before=${before}: no such checkout`);

console.log(
  `MCP start-up vs HTTP start-up, median of ${ROUNDS} interleaved rounds (noisy shared machine: compare within a row)`,
);
const head = "target  | HTTP spawn → 200 | MCP → initialize | ratio | MCP → server/discover | ratio | stdin end → exit";
console.log(before ? `${head} | before: MCP → initialize | after ÷ before` : head);
for (const target of targets) {
  const http: number[] = [];
  const legacy: number[] = [];
  const modern: number[] = [];
  const exit: number[] = [];
  const old: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    http.push(await httpOnce(target));
    const opened = await mcpOnce(mcpCommand(target, ROOT), ROOT, INITIALIZE);
    legacy.push(opened.readyMs);
    exit.push(opened.exitMs);
    modern.push((await mcpOnce(mcpCommand(target, ROOT), ROOT, DISCOVER)).readyMs);
    if (before) old.push((await mcpOnce(mcpCommand(target, before), before, INITIALIZE)).readyMs);
  }
  const [h, l, m, e] = [median(http), median(legacy), median(modern), median(exit)];
  const row = `${target.padEnd(7)} | ${ms(h)} | ${ms(l)} | ${(l / h).toFixed(2)} | ${ms(m)} | ${(m / h).toFixed(2)} | ${
    ms(e)
  }`;
  console.log(before ? `${row} | ${ms(median(old))} | ${(l / median(old)).toFixed(2)}` : row);
}

if (before && targets.includes("binary")) {
  const size = (path: string): number => statSync(path).size;
  const [now, then] = [size(`${ROOT}dist/video-chat-service`), size(`${before}dist/video-chat-service`)];
  const mb = (bytes: number): string => `${(bytes / 1_000_000).toFixed(2)} MB`;
  console.log(`binary size: ${mb(now)} against ${mb(then)} before (${(now / then).toFixed(3)}, ${now - then} bytes)`);
}
