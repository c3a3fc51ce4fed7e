/** @module Helpers for the start-up benchmark: free ports, timed process starts and throughput runs. */
import { spawn, type Subprocess } from "bun";
import { connect, createServer } from "node:net";
import { LoadConnection } from "../../tests/support/load-connection.ts";

/** A process started for measuring, and the URL it serves on. */
export interface Measured {
  process: Subprocess;
  url: string;
  /** Milliseconds from just before spawn to the first 200 from `readyPath`. */
  startupMs: number;
  stop(): Promise<void>;
}

/** @returns whether a TCP connection to 127.0.0.1:port is accepted (then closed) */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** @returns a TCP port free at the time of asking, on 127.0.0.1 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/**
 * Starts `command` on a fixed free port, waits until the port accepts
 * connections, then sends `GET readyPath`: the time until its 200 is what a
 * caller waits, launcher and runtime start-up included.
 *
 * @throws {Error} when it does not listen within `timeoutMs`, exits first, or answers other than 200
 */
export async function startMeasured(
  command: string[],
  env: Record<string, string>,
  options: { cwd: string; readyPath: string; timeoutMs?: number },
): Promise<Measured> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(command, {
    cwd: options.cwd,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "/tmp",
      NO_COLOR: "1",
      ...env,
      PORT: String(port),
      HOST: "127.0.0.1",
    },
    stdout: "ignore",
    stderr: "ignore",
  });
  const deadline = started + (options.timeoutMs ?? 30_000);
  const fail = (why: string): never => {
    child.kill("SIGKILL");
    throw new Error(`${command.join(" ")} ${why}`);
  };
  // TCP connects until one succeeds (a refused connect costs far less than a failed
  // fetch), then the request: its 200 is the first successful response.
  while (!(await accepts(port))) {
    if (child.exitCode !== null) fail(`exited with ${child.exitCode} before listening`);
    if (performance.now() > deadline) fail(`did not listen within ${options.timeoutMs ?? 30_000} ms`);
    await Bun.sleep(0.5);
  }
  const response = await fetch(`${url}${options.readyPath}`, { keepalive: false });
  await response.arrayBuffer();
  if (response.status !== 200) fail(`answered ${options.readyPath} with ${response.status}`);
  const startupMs = performance.now() - started;
  return {
    process: child,
    url,
    startupMs,
    async stop() {
      child.kill("SIGTERM");
      const exited = await Promise.race([child.exited, Bun.sleep(10_000).then(() => "timeout" as const)]);
      if (exited === "timeout") child.kill("SIGKILL");
    },
  };
}

/**
 * `connections` keep-alive connections, each sending `POST path` as soon as
 * its previous response is in, for `seconds` after a warm-up of `warmupSeconds`.
 *
 * @returns 200 responses per second over the measured period, and how many were not 200
 */
export async function measureThroughput(
  url: string,
  path: string,
  headers: Record<string, string>,
  body: string,
  options: { connections: number; seconds: number; warmupSeconds: number },
): Promise<{ rps: number; errors: number }> {
  const { hostname, port } = new URL(url);
  const connections = await Promise.all(
    Array.from({ length: options.connections }, () => LoadConnection.open(hostname, Number(port))),
  );
  const begin = performance.now() + options.warmupSeconds * 1000;
  const end = begin + options.seconds * 1000;
  let ok = 0;
  let errors = 0;
  await Promise.all(
    connections.map(async (connection) => {
      while (performance.now() < end) {
        const response = await connection.post(path, headers, body, 10_000);
        const now = performance.now();
        if (response.status !== 200) errors++;
        else if (now >= begin && now < end) ok++;
      }
    }),
  );
  for (const connection of connections) connection.close();
  return { rps: ok / options.seconds, errors };
}
