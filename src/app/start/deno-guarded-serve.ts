/** @module `Deno.serve` behind a TCP relay that adds the header and idle bounds Deno lacks. */
import { type ConnectionTimers, createConnectionTimers } from "./connection-timers.ts";
import type { Listener } from "./shutdown.ts";

/** What {@link serveGuarded} needs: where to listen, the bounds, and the app. */
export interface GuardedServeOptions {
  port: number;
  hostname: string;
  headersTimeoutMs: number;
  idleTimeoutMs: number;
  handler: (request: Request) => Promise<Response>;
}

const LOOPBACK = "127.0.0.1";
// Two buffers per connection: small, since a request body is at most MAX_BODY_BYTES and answers are short.
const CHUNK_BYTES = 16 * 1024;

/**
 * Deno.serve with the connection bounds it lacks (Deno 2 has no header or
 * idle timeout: idle and slowloris connections were never closed). The public
 * port is a plain TCP listener whose connections are relayed to Deno.serve on
 * a loopback port; the relay closes a connection once its timers say so. The
 * app's handler tells the timers a request is in flight: Deno reports the
 * relay's own local port as the request's remote address, which names it.
 *
 * @returns the listener start-up and shutdown use
 */
export function serveGuarded(options: GuardedServeOptions): Listener {
  const relays: Relays = { timersByPort: new Map(), closers: new Set() };
  const relaying = new Set<Promise<void>>();
  // The public port first: when it cannot be bound, nothing else was started.
  const publicListener = Deno.listen({ hostname: options.hostname, port: options.port });
  const server = Deno.serve({ hostname: LOOPBACK, port: 0, onListen: () => {} }, (request, info) => {
    const timers = relays.timersByPort.get(info.remoteAddr.port);
    if (timers) {
      timers.begin();
      info.completed.then(timers.end, timers.end);
    }
    return options.handler(request);
  });
  const bounds = { headersMs: options.headersTimeoutMs, idleMs: options.idleTimeoutMs };
  void (async () => {
    for await (const client of publicListener) {
      const done = relay(client, server.addr.port, bounds, relays);
      relaying.add(done);
      void done.finally(() => relaying.delete(done));
    }
  })().catch(() => {});
  return {
    port: (publicListener.addr as Deno.NetAddr).port,
    async stop() {
      closeQuietly(publicListener);
      await server.shutdown();
      // Deno is done once the answers reached the relay: they must reach the clients before the exit.
      await Promise.all(relaying);
    },
    async abort() {
      for (const close of [...relays.closers]) close();
    },
  };
}

/** The relay's bookkeeping: each connection's timers by the relay's local port, and how to close each. */
interface Relays {
  timersByPort: Map<number, ConnectionTimers>;
  closers: Set<() => void>;
}

/** Relays one client connection to the app's loopback port until either side ends or a bound is passed. */
async function relay(
  client: Deno.TcpConn,
  appPort: number,
  bounds: { headersMs: number; idleMs: number },
  relays: Relays,
): Promise<void> {
  let backend: Deno.TcpConn;
  try {
    backend = await Deno.connect({ hostname: LOOPBACK, port: appPort });
  } catch {
    return closeQuietly(client);
  }
  client.setNoDelay(true);
  backend.setNoDelay(true);
  const port = backend.localAddr.port;
  const close = (): void => {
    timers.dispose();
    relays.timersByPort.delete(port);
    relays.closers.delete(close);
    closeQuietly(client);
    closeQuietly(backend);
  };
  const timers = createConnectionTimers({ ...bounds, close });
  relays.timersByPort.set(port, timers);
  relays.closers.add(close);
  // Client to app, noting each chunk; its end is passed on (a half-closed client still gets its answer).
  void copy(client, backend, timers.received).then(() => backend.closeWrite()).catch(close);
  // App to client; the app closing its side ends the connection.
  await copy(backend, client, () => {}).catch(() => {});
  close();
}

/** Copies until `from` ends, calling `seen` for every chunk. */
async function copy(from: Deno.Conn, to: Deno.Conn, seen: () => void): Promise<void> {
  const buffer = new Uint8Array(CHUNK_BYTES);
  for (;;) {
    const read = await from.read(buffer);
    if (read === null) return;
    seen();
    for (let written = 0; written < read;) written += await to.write(buffer.subarray(written, read));
  }
}

function closeQuietly(resource: { close(): void }): void {
  try {
    resource.close();
  } catch {
    // Already closed.
  }
}
