/** @module Tests of the Swagger UI page: its CSP, self-served assets, start-up script and neighbouring 404s. */
import { describe, expect, test } from "bun:test";
import type { ChatService } from "../../../src/domain/chat.ts";
import { createHttpApp } from "../../../src/app/http/http-app.ts";
import { silentLogger } from "../../../src/app/log/logger.ts";

const unusedChat: ChatService = {
  answer: async () => Promise.reject(new Error("not called by these tests")),
  cached: async () => undefined,
};
const app = createHttpApp({
  chat: unusedChat,
  apiKeys: { verify: async () => undefined },
  rateLimiter: { take: async () => ({ allowed: true, remaining: 0, resetSeconds: 0 }) },
  maxBodyBytes: 16_384,
  logger: silentLogger,
});

const get = (path: string, method = "GET") => app.fetch(new Request(`http://localhost${path}`, { method }));

/** @returns every script and stylesheet address the page loads */
function assetsOf(html: string): string[] {
  const scripts = [...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)];
  const styles = [...html.matchAll(/<link\b[^>]*\brel="stylesheet"[^>]*\bhref="([^"]+)"/g)];
  return [...scripts, ...styles].map((m) => m[1]!);
}

describe("GET /swagger", () => {
  test("serves the page with no key, under a CSP that allows scripts from this service only", async () => {
    const response = await get("/swagger");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("x-request-id")).toBeTruthy();
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toContain("unsafe-");
    expect(csp).not.toMatch(/https?:|\*/);
  });

  test("loads its scripts and styles from this service, never from another host, and has no inline script", async () => {
    const html = await (await get("/swagger")).text();
    const assets = assetsOf(html);
    expect(assets.length).toBe(3);
    for (const asset of assets) expect(asset).toStartWith("/swagger/assets/");
    for (const [, address] of html.matchAll(/\b(?:src|href)="([^"]+)"/g)) {
      expect(address).toMatch(/^(\/swagger\/|data:)/);
    }
    expect(html).not.toMatch(/<script>|<script\s+(?![^>]*\bsrc=)/);
  });

  test("every asset the page names is served with its type, no key needed", async () => {
    const html = await (await get("/swagger")).text();
    for (const asset of assetsOf(html)) {
      const response = await get(asset);
      expect(response.status, asset).toBe(200);
      expect(response.headers.get("content-type")).toMatch(asset.endsWith(".css") ? /^text\/css/ : /^text\/javascript/);
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect((await response.text()).length).toBeGreaterThan(100);
    }
  });

  test("the Swagger UI bundle is the npm package's, carried in the service (large, versioned path, cached for good)", async () => {
    const html = await (await get("/swagger")).text();
    const bundle = assetsOf(html).find((a) => a.endsWith("swagger-ui-bundle.js"))!;
    expect(bundle).toMatch(/\/swagger-ui-\d+\.\d+\.\d+\//);
    const response = await get(bundle);
    expect(response.headers.get("cache-control")).toContain("immutable");
    expect((await response.text()).length).toBeGreaterThan(1_000_000);
  });

  test("the start-up script points Swagger UI at the document and turns the public validator badge off", async () => {
    const script = await (await get("/swagger/assets/docs-init.js")).text();
    expect(script).toContain('"/swagger/json"');
    expect(script).toContain("validatorUrl: null");
  });

  test("other paths under /swagger and other methods on /chat keep the contract's 404 and 405", async () => {
    const missing = await get("/swagger/assets/nope.js");
    expect(missing.status).toBe(404);
    expect((await missing.json()).error.code).toBe("not_found");
    const wrongMethod = await get("/chat");
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("allow")).toBe("POST");
  });
});
