/** @module A runtime for start-up tests: listeners are function calls, exits are recorded, the test sends signals. */
import type { Runtime, ServeOptions } from "../../../src/app/start/start.ts";
import type { Listener } from "../../../src/app/start/shutdown.ts";

/** What a failing exit throws: start-up code after it must not run. */
export class Exit extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}

/**
 * A runtime whose `serve` records each listener's options. Port 1 cannot be bound. A port in `named` is a listener of
 * its own (its events and its entry in `served` carry its name); every other port is the public one, on port 4321.
 *
 * @param named listeners by port, e.g. `{ 9100: "admin" }`
 * @param publicName the public listener's name in its events (`public stop`); none by default (`stop`)
 */
export function fakeRuntime(env: Record<string, string>, named: Record<number, string>, publicName?: string) {
  const printed: string[] = [];
  const errors: string[] = [];
  const events: string[] = [];
  const served = new Map<string, ServeOptions>();
  let signal: ((name: string) => void) | undefined;
  const exited = Promise.withResolvers<number>();
  const runtime: Runtime = {
    name: "Fake 1.0",
    env,
    stdoutIsTerminal: false,
    print: (line) => printed.push(line),
    printError: (line) => errors.push(line),
    exit: (code) => {
      exited.resolve(code);
      if (code !== 0) throw new Exit(code);
      return undefined as never;
    },
    serve: (options) => {
      if (options.port === 1) throw new Error("Failed to start server. Is port 1 in use?");
      const own = named[options.port];
      served.set(own ?? "public", options);
      const tag = own ?? publicName;
      const listener: Listener = {
        port: own ? options.port : 4321,
        stop: async () => void events.push(tag ? `${tag} stop` : "stop"),
        abort: async () => void events.push(tag ? `${tag} abort` : "abort"),
      };
      return listener;
    },
    onStopSignal: (handler) => (signal = handler),
  };
  return {
    runtime,
    printed,
    /** What was printed, line by line (one print may hold several lines: the banner, a turn's log lines). */
    printedLines: () => printed.flatMap((text) => text.split("\n")),
    errors,
    events,
    served,
    exited: exited.promise,
    send: (name: string) => signal!(name),
  };
}
