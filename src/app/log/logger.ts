/** @module The structured logger: one JSON object (or short readable line) per log line. */
/** One structured log line's fields. */
export type LogFields = Record<string, unknown>;

/** Where the service writes its logs. */
export interface Logger {
  info(event: string, fields?: LogFields): void;
  warn(event: string, fields?: LogFields): void;
  error(event: string, fields?: LogFields): void;
}

/**
 * A logger writing one JSON object per line (or a short readable line when
 * `pretty`), for log shippers and people alike.
 */
export function createLogger(options: { write: (line: string) => void; pretty?: boolean; now?: () => Date }): Logger {
  const now = options.now ?? (() => new Date());
  const emit = (level: string, event: string, fields: LogFields = {}): void => {
    if (options.pretty) {
      const extras = Object.entries(fields).map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`);
      options.write(`${now().toISOString()} ${level.toUpperCase()} ${event} ${extras.join(" ")}`.trimEnd());
      return;
    }
    // Concatenated rather than spread into a new object: this runs once per request.
    const rest = JSON.stringify(fields);
    options.write(
      `{"time":"${now().toISOString()}","level":"${level}","event":${JSON.stringify(event)}${
        rest === "{}" ? "}" : `,${rest.slice(1)}`
      }`,
    );
  };
  return {
    info: (event, fields) => emit("info", event, fields),
    warn: (event, fields) => emit("warn", event, fields),
    error: (event, fields) => emit("error", event, fields),
  };
}

/** A logger that drops everything, for tests that do not look at logs. */
export const silentLogger: Logger = { info() {}, warn() {}, error() {} };
