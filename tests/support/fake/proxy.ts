/** @module Loopback forward proxies leaving from chosen loopback addresses, fixed or rotating per connection. */
import { connect, createServer, type Server, type Socket } from "node:net";

/** A forward proxy on 127.0.0.1 (HTTP absolute-form requests and CONNECT). */
export interface FakeProxy {
  /** `http://127.0.0.1:<port>`, optionally with credentials the proxy does not check. */
  url: string;
  port: number;
  /** Client connections accepted so far. */
  connections(): number;
  /** Source address each accepted client connection left from, in order. */
  sources: string[];
  close(): Promise<void>;
}

/**
 * Starts a forward proxy. Each new client connection picks its source address
 * with `pick(n)` (n = 0, 1, …), so a fixed proxy returns one address and a
 * rotating gateway a new one per connection, as residential gateways do.
 *
 * @param pick the loopback address the n-th client connection leaves from
 * @param auth credentials put in the returned URL (`user:pass`)
 */
export async function startFakeProxy(
  pick: (n: number, user: string | undefined) => string,
  auth?: string,
): Promise<FakeProxy> {
  const sources: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    sockets.add(client);
    client.on("close", () => sockets.delete(client));
    client.on("error", () => client.destroy());
    client.once("data", (first: Buffer) => {
      const source = pick(sources.length, proxyUser(first.toString("latin1")));
      sources.push(source);
      relay(client, first, source, sockets);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://${auth ? `${auth}@` : ""}127.0.0.1:${port}`,
    port,
    connections: () => sources.length,
    sources,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A proxy that always leaves from `address`. */
export function startFixedProxy(address: string, auth?: string): Promise<FakeProxy> {
  return startFakeProxy(() => address, auth);
}

/** A gateway that leaves from the next of `addresses` for each new client connection. */
export function startRotatingProxy(addresses: readonly string[], auth?: string): Promise<FakeProxy> {
  return startFakeProxy((n) => addresses[n % addresses.length]!, auth);
}

/**
 * A gateway with sticky sessions, as residential providers offer them: the
 * user name's `session-<id>` keeps one address per id, whatever the
 * connection; a new id gets the next address (`pickNew(n)` for the n-th id).
 */
export function startStickyProxy(pickNew: (n: number) => string): Promise<FakeProxy> {
  const sessions = new Map<string, string>();
  return startFakeProxy((n, user) => {
    const id = /session-([^:]+)/.exec(user ?? "")?.[1];
    if (!id) return pickNew(n);
    if (!sessions.has(id)) sessions.set(id, pickNew(sessions.size));
    return sessions.get(id)!;
  }, "user-session-{session}:pass");
}

/** @returns the user name of the request head's `Proxy-Authorization: Basic`, if any */
function proxyUser(head: string): string | undefined {
  const basic = /\r\nproxy-authorization:\s*basic\s+([A-Za-z0-9+/=]+)/i.exec(head)?.[1];
  return basic ? decodeURIComponent(Buffer.from(basic, "base64").toString("utf8").split(":")[0] ?? "") : undefined;
}

/** Connects the client to its target from `source`: a tunnel for CONNECT, the request rewritten to origin-form otherwise. */
function relay(client: Socket, first: Buffer, source: string, sockets: Set<Socket>): void {
  client.pause();
  const head = first.toString("latin1");
  const line = head.slice(0, head.indexOf("\r\n"));
  const [method = "", target = ""] = line.split(" ");
  const tunnel = method === "CONNECT";
  let host: string;
  let port: number;
  let rewritten = first;
  if (tunnel) {
    const [h = "", p = "443"] = target.split(":");
    host = h;
    port = Number(p);
  } else {
    if (!URL.canParse(target)) return void client.end("HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n");
    const url = new URL(target);
    host = url.hostname;
    port = Number(url.port || 80);
    rewritten = Buffer.from(head.replace(target, url.pathname + url.search), "latin1");
  }
  const upstream = connect({ host, port, localAddress: source });
  sockets.add(upstream);
  upstream.on("close", () => sockets.delete(upstream));
  upstream.on("error", () => client.destroy());
  client.on("close", () => upstream.destroy());
  upstream.on("connect", () => {
    if (tunnel) client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
    else upstream.write(rewritten);
    client.pipe(upstream);
    upstream.pipe(client);
  });
}
