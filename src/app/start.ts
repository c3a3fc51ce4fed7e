import { bannerLines } from "./banner.ts";
import { composeService } from "./compose.ts";
import { ConfigError, loadConfig, type Config } from "./config.ts";
import { createBufferedLines } from "./buffered-lines.ts";
import { createLogger } from "./logger.ts";
import { createRequestLog } from "./request-log.ts";
import { createInFlight, shutDown, type Listener } from "./start-shutdown.ts";

/** What start-up needs from a runtime (Bun, Deno): the only part that differs between entry points. */
export interface Runtime {
  /** Shown in the banner, e.g. `Bun 1.4.5`. */
  name: string;
  env: Record<string, string | undefined>;
  stdoutIsTerminal: boolean;
  print(line: string): void;
  printError(line: string): void;
  exit(code: number): never;
  serve(options: ServeOptions): Listener | Promise<Listener>;
  /** Calls `handler` on SIGTERM and SIGINT. */
  onStopSignal(handler: (signal: string) => void): void;
}

/** How the runtime's server must listen. */
export interface ServeOptions {
  port: number;
  host: string;
  fetch: (request: Request) => Promise<Response>;
  /** The app enforces the real limit; a runtime limit, if any, must sit above it. */
  maxBodyBytes: number;
  /** How long a request's headers may take to arrive (the app bounds the body itself). */
  headersTimeoutMs: number;
  /** How long a connection may sit without a request. */
  idleTimeoutMs: number;
}

/** Exit code when the settings are wrong (all problems are printed first). */
export const EXIT_BAD_CONFIG = 2;

/**
 * Starts the service on a runtime: validates the settings, builds the
 * service, listens, prints the banner, and stops gracefully on a signal.
 * Exits with {@link EXIT_BAD_CONFIG} when the settings are wrong.
 *
 * @param runtime the runtime's serve, signal and output primitives
 */
export async function runService(runtime: Runtime): Promise<void> {
  const config = loadConfigOrExit(runtime);
  const pretty = config.logFormat === "pretty" || (config.logFormat === "auto" && runtime.stdoutIsTerminal);
  // Log lines go out together once per timer turn (one write for many requests), and are flushed before every exit.
  const lines = createBufferedLines((text) => runtime.print(text));
  const exit = (code: number): never => {
    lines.flush();
    return runtime.exit(code);
  };
  const logger = createLogger({ write: lines.line, pretty });
  const requestLog = createRequestLog({ logger });
  const service = await composeService(config, { logger, notes: requestLog.notes });
  const inFlight = createInFlight();
  let listener: Listener;
  try {
    listener = await runtime.serve({ port: config.port, host: config.host, fetch: inFlight.wrap(requestLog.wrap(service.app.fetch)), maxBodyBytes: config.maxBodyBytes, ...connectionBounds(config) });
  } catch (error) {
    runtime.printError(`Cannot listen on ${config.host}:${config.port}: ${error instanceof Error ? error.message : String(error)}; set PORT or HOST`);
    await service.close();
    return exit(1);
  }
  lines.flush();
  const shown = hostForUrl(config.host);
  for (const line of bannerLines({ url: `http://${shown}:${listener.port}`, backend: service.banner.backend, generatedKey: service.banner.generatedKey, runtime: runtime.name })) {
    runtime.print(line);
  }
  let stopping = false;
  runtime.onStopSignal((signal) => {
    if (stopping) return;
    stopping = true;
    void shutDown({ listener, inFlight, graceMs: config.shutdownGraceMs, closeService: () => service.close(), logger, signal }).then(() => exit(0));
  });
}

function connectionBounds(config: Config): { headersTimeoutMs: number; idleTimeoutMs: number } {
  return { headersTimeoutMs: config.connection.headersTimeoutMs, idleTimeoutMs: config.connection.idleTimeoutMs };
}

/** A listening address as a URL shows it: `localhost` for the wildcard, IPv6 in brackets. */
function hostForUrl(host: string): string {
  if (host === "0.0.0.0" || host === "::") return "localhost";
  return host.includes(":") ? `[${host}]` : host;
}

function loadConfigOrExit(runtime: Runtime): Config {
  try {
    return loadConfig(runtime.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    runtime.printError(error.message);
    return runtime.exit(EXIT_BAD_CONFIG);
  }
}
