/** @module Starts the MCP listener (`MCP_PORT`): Streamable HTTP at `/mcp`, on the service's use cases and keys. */
import type { ToolsCore } from "../compose/service.ts";
import type { Config } from "../config/config.ts";
import type { Logger } from "../log/logger.ts";
import { createRequestLog } from "../log/request-log.ts";
import { createLiveStreams } from "../stream/live-streams.ts";
import { createInFlight, type Listener, type ServeOptions } from "./shutdown.ts";

/** The MCP listener once it listens, and what shutdown waits for on it. */
export interface McpListener {
  listener: Listener;
  /** The endpoint's URL, for the banner. */
  url: string;
  /** Requests being answered and calls whose event stream is open. */
  readonly count: number;
  /** @returns a promise settled when no request or call is in progress */
  idle(): Promise<void>;
  /** Ends every call in progress with `reason` as its result (`overloaded` when the grace period ran out). */
  interrupt(reason: unknown): void;
}

/**
 * Starts the MCP listener on `MCP_HOST:MCP_PORT`, with the public port's
 * connection bounds. Its requests get request log lines of their own (path
 * `/mcp`); they are not counted in the public port's metrics. The SDK and the
 * handler are loaded here, only when there is an MCP port.
 *
 * @param tools the use cases, keys, rate limits and cancellations the endpoint serves with
 * @throws what the runtime's serve throws (a port in use)
 */
export async function startMcpListener(
  config: Config & { mcp: NonNullable<Config["mcp"]> },
  tools: ToolsCore,
  options: { logger: Logger; serve: (options: ServeOptions) => Listener },
): Promise<McpListener> {
  const { createMcpHttpHandler } = await import("../mcp/http-handler.ts");
  const calls = createLiveStreams();
  const inFlight = createInFlight();
  const requestLog = createRequestLog({ logger: options.logger, streamEnded: calls.ended });
  const handler = createMcpHttpHandler({
    tools,
    logger: options.logger,
    maxBodyBytes: config.maxBodyBytes,
    bodyTimeoutMs: config.connection.bodyTimeoutMs,
    requestTimeoutMs: config.requestTimeoutMs,
    progressTimeoutMs: config.stream.timeoutMs,
    keepAliveMs: config.stream.keepAliveMs,
    corsOrigins: config.corsOrigins,
    notes: requestLog.notes,
    calls,
  });
  const listener = await options.serve({
    port: config.mcp.port,
    host: config.mcp.host,
    fetch: inFlight.wrap(requestLog.wrap(handler)),
    maxBodyBytes: config.maxBodyBytes,
    streamEnded: calls.ended,
    headersTimeoutMs: config.connection.headersTimeoutMs,
    idleTimeoutMs: config.connection.idleTimeoutMs,
  });
  const host = config.mcp.host;
  const shown = host === "0.0.0.0" || host === "::" ? "localhost" : host.includes(":") ? `[${host}]` : host;
  return {
    listener,
    url: `http://${shown}:${listener.port}/mcp`,
    get count() {
      return inFlight.count + calls.count;
    },
    idle: () => Promise.all([inFlight.idle(), calls.idle()]).then(() => {}),
    interrupt: (reason) => calls.interrupt(reason),
  };
}
