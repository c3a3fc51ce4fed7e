/** @module Starts the service on a runtime: settings, composition, listeners, banner and signals. */
import { bannerLines } from "./banner.ts";
import { composeService } from "../compose/service.ts";
import { type Config, loadConfigOrExit, readOrExit } from "../config/config.ts";
import { readTestSettings } from "../config/test-settings.ts";
import { createBufferedLines } from "../log/buffered-lines.ts";
import { createLogger } from "../log/logger.ts";
import { createRequestLog } from "../log/request-log.ts";
import { type Admin, startAdmin } from "./admin.ts";
import { type McpListener, startMcpListener } from "./mcp-listener.ts";
import { createInFlight, type Listener, type ServeOptions, shutDown } from "./shutdown.ts";
import { createLiveStreams } from "../stream/live-streams.ts";
import { AppError } from "../../domain/errors.ts";

export type { ServeOptions } from "./shutdown.ts";

/** What start-up needs from a runtime (Bun, Deno): the only part that differs between entry points. */
export interface Runtime {
  /** Shown in the banner, e.g. `Bun 1.4.5`. */
  name: string;
  env: Record<string, string | undefined>;
  stdoutIsTerminal: boolean;
  print(line: string): void;
  printError(line: string): void;
  exit(code: number): never;
  serve(options: ServeOptions): Listener;
  /** Calls `handler` on SIGTERM and SIGINT. */
  onStopSignal(handler: (signal: string) => void): void;
}

/**
 * Starts the service on a runtime: validates the settings, builds the
 * service, listens, prints the banner, and stops gracefully on a signal.
 * Exits with 2 (`EXIT_BAD_CONFIG`) when the settings are wrong.
 *
 * @param runtime the runtime's serve, signal and output primitives
 */
export async function runService(runtime: Runtime): Promise<void> {
  const config = loadConfigOrExit(runtime);
  const testSettings = readOrExit(runtime, readTestSettings);
  const pretty = config.logFormat === "pretty" || (config.logFormat === "auto" && runtime.stdoutIsTerminal);
  // Log lines go out together once per timer turn (one write for many requests), and are flushed before every exit.
  const lines = createBufferedLines((text) => runtime.print(text));
  const exit = (code: number): never => {
    lines.flush();
    return runtime.exit(code);
  };
  const logger = createLogger({ write: lines.line, pretty });
  const admin = config.admin
    ? await listenOrExit(
      runtime,
      exit,
      config.admin.host,
      config.admin.port,
      "ADMIN_PORT or ADMIN_HOST",
      () =>
        startAdmin(config.admin!, {
          redisConfigured: config.redis !== undefined,
          keysInRedisOnly: config.redis !== undefined && config.apiKeys.length === 0,
          serve: runtime.serve,
          models: config.llmApi.apiKey ? config.llmChain.map((link) => link.model) : [],
        }),
    )
    : undefined;
  const streams = createLiveStreams();
  const requestLog = createRequestLog({ logger, observe: admin?.metrics.request, streamEnded: streams.ended });
  const onRedisAvailability = (available: boolean): void => {
    admin?.readiness.redis(available);
    admin?.metrics.redisAvailability(available);
  };
  const service = await composeService(config, {
    logger,
    notes: requestLog.notes,
    metrics: admin?.metrics,
    onRedisAvailability,
    onUsageAvailability: (available) => admin?.readiness.usage(available),
    streams,
    llmBudgetWindowMs: testSettings.llmBudgetWindowMs,
  });
  const inFlight = createInFlight();
  admin?.metrics.watchInFlight(() => inFlight.count + streams.count);
  const closeAll = async (): Promise<void> => {
    await service.close();
    // Last, so probes and scrapes are answered while requests drain; nothing on it needs finishing.
    await admin?.listener.abort();
  };
  const serveMain = async () =>
    runtime.serve({
      port: config.port,
      host: config.host,
      fetch: inFlight.wrap(requestLog.wrap(service.app.fetch)),
      maxBodyBytes: config.maxBodyBytes,
      streamEnded: streams.ended,
      ...connectionBounds(config),
    });
  const main = await listenOrExit(runtime, exit, config.host, config.port, "PORT or HOST", serveMain, closeAll);
  const mcp = config.mcp && service.tools
    ? await listenOrExit(
      runtime,
      exit,
      config.mcp.host,
      config.mcp.port,
      "MCP_PORT or MCP_HOST",
      () => startMcpListener({ ...config, mcp: config.mcp! }, service.tools!, { logger, serve: runtime.serve }),
      async () => {
        await main.abort();
        await closeAll();
      },
    )
    : undefined;
  const listener = mcp ? bothListeners(main, mcp.listener) : main;
  admin?.readiness.serving();
  lines.flush();
  let stopping = false;
  runtime.onStopSignal((signal) => {
    if (stopping) return;
    stopping = true;
    // Not ready at once, so the orchestrator stops sending traffic while requests in flight finish.
    admin?.readiness.stopping();
    // Streams count as requests in flight until they end; those still open after the grace period get an `error` event.
    const working = {
      get count() {
        return inFlight.count + streams.count + (mcp?.count ?? 0);
      },
      idle: () => Promise.all([inFlight.idle(), streams.idle(), mcp?.idle()]).then(() => {}),
    };
    const interrupt = async (): Promise<void> => {
      const reason = new AppError("overloaded", "The server is shutting down; send the request again", {
        retryAfterSeconds: 1,
      });
      streams.interrupt(reason);
      mcp?.interrupt(reason);
    };
    void shutDown({
      listener,
      inFlight: working,
      graceMs: config.shutdownGraceMs,
      closeService: closeAll,
      logger,
      signal,
      beforeAbort: interrupt,
    }).then(() => exit(0));
  });
  // After the stop signals are handled: a supervisor that signals as soon as it reads the banner must not kill us.
  printBanner(runtime, config, main, service, admin, mcp);
}

/** The public and MCP listeners, stopped and cut together. */
function bothListeners(main: Listener, mcp: Listener): Listener {
  return {
    port: main.port,
    stop: () => Promise.all([main.stop(), mcp.stop()]).then(() => {}),
    abort: () => Promise.all([main.abort(), mcp.abort()]).then(() => {}),
  };
}

/** Listens, or prints why not and exits 1 (after `cleanUp`). */
async function listenOrExit<T>(
  runtime: Runtime,
  exit: (code: number) => never,
  host: string,
  port: number,
  settings: string,
  listen: () => Promise<T>,
  cleanUp?: () => Promise<void>,
): Promise<T> {
  try {
    return await listen();
  } catch (error) {
    runtime.printError(
      `Cannot listen on ${host}:${port}: ${error instanceof Error ? error.message : String(error)}; set ${settings}`,
    );
    await cleanUp?.();
    return exit(1);
  }
}

function printBanner(
  runtime: Runtime,
  config: Config,
  listener: Listener,
  service: { banner: { backend: string; generatedKey?: string; warnings: string[] } },
  admin: Admin | undefined,
  mcp: McpListener | undefined,
): void {
  const shown = hostForUrl(config.host);
  const lines = bannerLines({
    url: `http://${shown}:${listener.port}`,
    backend: service.banner.backend,
    generatedKey: service.banner.generatedKey,
    warnings: service.banner.warnings,
    runtime: runtime.name,
    adminUrl: admin?.url,
    mcpUrl: mcp?.url,
  });
  // One write: a reader of the output (a supervisor, a script waiting for the URL) gets the whole banner at once.
  runtime.print(lines.join("\n"));
}

function connectionBounds(config: Config): { headersTimeoutMs: number; idleTimeoutMs: number } {
  return { headersTimeoutMs: config.connection.headersTimeoutMs, idleTimeoutMs: config.connection.idleTimeoutMs };
}

/** A listening address as a URL shows it: `localhost` for the wildcard, IPv6 in brackets. */
function hostForUrl(host: string): string {
  if (host === "0.0.0.0" || host === "::") return "localhost";
  return host.includes(":") ? `[${host}]` : host;
}
