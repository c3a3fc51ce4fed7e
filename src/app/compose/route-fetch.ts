/** @module The runtime's `fetch` for one egress route, which no proxy environment variable can redirect. */
import process from "node:process";

/** Environment variables that send a request elsewhere than its route says. */
const PROXY_VARS = ["HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"];
const NO_PROXY_VARS = ["NO_PROXY", "no_proxy"];

interface DenoHttp {
  createHttpClient(options: { proxy?: { url: string } }): { close(): void };
}

/**
 * A `fetch` leaving by one route. Both runtimes read the proxy variables of
 * the environment for every request, and apply `NO_PROXY` even to an explicit
 * proxy (checked on Bun 1.4 and Deno 2.9): so a proxied route is sent with
 * `NO_PROXY` hidden, and `direct` with the proxy variables hidden. Bun reads
 * them when `fetch` is called and Deno when an HTTP client is made, both
 * synchronously, so they are hidden only for that one synchronous call.
 *
 * @param proxy the proxy URL, or undefined for `direct`
 * @param fresh whether to leave over new connections (a rotating gateway
 *   then gives a new address): on Bun `keepalive: false` on every request, on Deno
 *   an HTTP client of its own (its requests share its one pool); otherwise
 *   Bun's shared pool, and on Deno one client to keep
 * @returns the fetch, and `close` to release a Deno client
 */
export function routeFetch(
  proxy: string | undefined,
  { fresh }: { fresh: boolean },
): { fetch: typeof fetch; close(): void } {
  const hidden = proxy ? NO_PROXY_VARS : PROXY_VARS;
  const deno = (globalThis as { Deno?: DenoHttp }).Deno;
  if (deno) {
    const client = withHidden(hidden, () => deno.createHttpClient(proxy ? { proxy: { url: proxy } } : {}));
    const bound = ((input: string | URL | Request, init?: RequestInit) =>
      fetch(input, { ...init, client } as RequestInit)) as typeof fetch;
    return {
      fetch: bound,
      close: () =>
        client.close(),
    };
  }
  const options = { ...(proxy ? { proxy } : {}), ...(fresh ? { keepalive: false } : {}) };
  const bound =
    ((input: string | URL | Request, init?: RequestInit) =>
      withHidden(hidden, () => fetch(input, { ...init, ...options } as RequestInit))) as typeof fetch;
  return { fetch: bound, close: () => {} };
}

/** Runs `work` with the named environment variables unset, restoring them before it returns. */
function withHidden<T>(names: readonly string[], work: () => T): T {
  const saved = new Map<string, string>();
  for (const name of names) {
    const value = process.env[name];
    if (value === undefined) continue;
    saved.set(name, value);
    delete process.env[name];
  }
  try {
    return work();
  } finally {
    for (const [name, value] of saved) process.env[name] = value;
  }
}
