/** @module MCP mode (`server mcp`): JSON-RPC on stdin/stdout, logs on stderr, exit when stdin closes. */
import type { Readable, Writable } from "node:stream";
import { serveStdio, StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import { createBufferedLines } from "../log/buffered-lines.ts";
import { composeMcp } from "../compose/service.ts";
import { loadConfigOrExit, readOrExit } from "../config/config.ts";
import { readTestSettings } from "../config/test-settings.ts";
import { createLogger } from "../log/logger.ts";
import { createMcpServer } from "./mcp-server.ts";

/** What MCP mode needs from a runtime: stdio as Node streams (the SDK's transport reads and writes them). */
export interface McpRuntime {
  name: string;
  env: Record<string, string | undefined>;
  stdin: Readable;
  stdout: Writable;
  /** Everything but protocol messages: logs and the start-up line. */
  printError(line: string): void;
  exit(code: number): never;
  /** Calls `handler` on SIGTERM and SIGINT. */
  onStopSignal(handler: (signal: string) => void): void;
}

/**
 * Serves MCP over stdio on the same composition root and settings as the
 * HTTP service (Groq key, Redis, budget, caches); no listener, no API key.
 * The SDK's `serveStdio` lets the client's first message choose the era for
 * the connection: `server/discover` (2026-07-28) or `initialize` (2025-era).
 * Stops when stdin ends (the client closed it), stdout breaks, or on a signal: calls in
 * flight are cancelled, logs flushed, Redis closed, exit 0.
 * Exits with 2 (`EXIT_BAD_CONFIG`) when the settings are wrong.
 *
 * @param runtime the runtime's stdio, environment, exit and signals
 */
export async function runMcp(runtime: McpRuntime): Promise<void> {
  const config = loadConfigOrExit(runtime);
  const testSettings = readOrExit(runtime, readTestSettings);
  // Logs go to stderr, one write per timer turn; stdout carries only JSON-RPC.
  const lines = createBufferedLines((text) => runtime.printError(text));
  const logger = createLogger({ write: lines.line, pretty: config.logFormat === "pretty" });
  const core = await composeMcp(config, { logger, llmBudgetWindowMs: testSettings.llmBudgetWindowMs });
  const deps = {
    chat: core.chat,
    transcripts: core.transcripts,
    rateLimiter: core.rateLimiter,
    usage: core.usage,
    logger,
    maxArgumentBytes: config.maxBodyBytes,
    requestTimeoutMs: config.requestTimeoutMs,
    progressTimeoutMs: config.stream.timeoutMs,
  };
  // A line that is not JSON-RPC gets no answer from the SDK; it is logged, so a client's bug can be found.
  const onerror = (error: Error): void => logger.warn("mcp_protocol_error", { error: error.message.slice(0, 300) });
  // One server for the connection, made when the client's first message has chosen the era.
  const connection = serveStdio(() => {
    const server = createMcpServer(deps);
    server.onerror = onerror;
    return server;
  }, { transport: new StdioServerTransport(runtime.stdin, runtime.stdout), onerror });
  let stopping: Promise<never> | undefined;
  const stop = (reason: string): Promise<never> => (stopping ??= (async () => {
    logger.info("mcp_stopping", { reason });
    await connection.close().catch(() => {});
    await core.close().catch(() => {});
    lines.flush();
    return runtime.exit(0);
  })());
  runtime.stdin.on("end", () => void stop("stdin closed"));
  runtime.stdin.on("close", () => void stop("stdin closed"));
  // A client that went away without closing stdin breaks the pipe: nobody can read the answers any more.
  runtime.stdout.on("error", () => void stop("stdout closed"));
  runtime.onStopSignal((signal) => void stop(signal));
  logger.info("mcp_ready", { runtime: runtime.name, backend: core.backend, tools: "chat_about_video,get_transcript" });
}
