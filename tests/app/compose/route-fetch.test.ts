/** @module Tests of route-fetch.ts through loopback proxies: listed routes only, whatever NO_PROXY says. */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { routeFetch } from "../../../src/app/compose/route-fetch.ts";
import { startFixedProxy, startRotatingProxy } from "../../support/fake/proxy.ts";

// The server answers with the address each request came from.
const server = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch: (request, s) => new Response(s.requestIP(request)?.address ?? ""),
});
const target = `http://127.0.0.1:${server.port}/`;
const saved = { ...process.env };

afterEach(() => {
  for (const name of ["NO_PROXY", "no_proxy", "HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy"]) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});
afterAll(() => server.stop(true));

describe("routeFetch()", () => {
  test("a proxied route goes through its proxy even when NO_PROXY names the target, and NO_PROXY is left as it was", async () => {
    const proxy = await startFixedProxy("127.0.0.2", "user:pass");
    process.env.NO_PROXY = "127.0.0.1,localhost";
    const via = routeFetch(proxy.url, { fresh: false });
    expect(await (await via.fetch(target)).text()).toBe("127.0.0.2");
    expect(process.env.NO_PROXY).toBe("127.0.0.1,localhost");
    await proxy.close();
  });

  test("direct never goes through the proxy the environment names", async () => {
    const proxy = await startFixedProxy("127.0.0.3");
    process.env.HTTP_PROXY = proxy.url;
    process.env.HTTPS_PROXY = proxy.url;
    expect(await (await routeFetch(undefined, { fresh: false }).fetch(target)).text()).toBe("127.0.0.1");
    expect(proxy.connections()).toBe(0);
    expect(process.env.HTTP_PROXY).toBe(proxy.url);
    await proxy.close();
  });

  test("fresh: each request leaves over a new connection, so a rotating gateway gives each a new address", async () => {
    const gateway = await startRotatingProxy(["127.0.0.4", "127.0.0.5", "127.0.0.6"]);
    const fresh = routeFetch(gateway.url, { fresh: true });
    const seen: string[] = [];
    for (let i = 0; i < 3; i++) seen.push(await (await fresh.fetch(target)).text());
    expect(seen).toEqual(["127.0.0.4", "127.0.0.5", "127.0.0.6"]);
    const pooled = routeFetch(gateway.url, { fresh: false });
    const again: string[] = [];
    for (let i = 0; i < 3; i++) again.push(await (await pooled.fetch(target)).text());
    expect(new Set(again).size).toBe(1);
    await gateway.close();
  });
});
