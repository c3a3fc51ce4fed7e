/** @module A loopback canary server that no request of the service may ever reach; it only counts. */
/** A loopback server no request of the service may ever reach: it only counts. */
export interface Canary {
  origin: string;
  host: string;
  /** Every request it received, as `METHOD path?query`. */
  hits: string[];
  close(): Promise<void>;
}

/** Starts a canary on a free loopback port; it answers 200 with a harmless body so a leak would go unnoticed otherwise. */
export function startCanary(): Canary {
  const hits: string[] = [];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(request) {
      const url = new URL(request.url);
      hits.push(`${request.method} ${url.pathname}${url.search}`);
      return new Response(
        '<?xml version="1.0"?><transcript><text start="0" dur="1">canary reached</text></transcript>',
        { headers: { "content-type": "text/xml" } },
      );
    },
  });
  return {
    origin: `http://127.0.0.1:${server.port}`,
    host: `127.0.0.1:${server.port}`,
    hits,
    close: async () => {
      server.stop(true);
    },
  };
}
