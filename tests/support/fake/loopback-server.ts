/** @module A loopback server on a fixed port that a fake can stop and restart listening on. */
/** A loopback server on a fixed port that a fake can stop and restart listening on. */
export interface LoopbackServer {
  port: number;
  /** Stops listening, so that calls meet a refused connection on the same port. */
  refuseConnections(): Promise<void>;
  /** Listens again on the same port. */
  acceptConnections(): void;
  close(): Promise<void>;
}

/**
 * Serves `handle` (told the client's address) on 127.0.0.1 at a free port, with no idle timeout (faults
 * that hang must hang until the client gives up).
 */
export function startLoopbackServer(
  handle: (request: Request, address: string) => Response | Promise<Response>,
): LoopbackServer {
  const serve = (port: number) =>
    Bun.serve({
      port,
      hostname: "127.0.0.1",
      idleTimeout: 0,
      fetch: (request, server) => handle(request, server.requestIP(request)?.address ?? ""),
    });
  let server: ReturnType<typeof serve> | undefined = serve(0);
  const port = server.port as number;
  const stop = async () => {
    await server?.stop(true);
    server = undefined;
  };
  return {
    port,
    refuseConnections: stop,
    acceptConnections() {
      server ??= serve(port);
    },
    close: stop,
  };
}
