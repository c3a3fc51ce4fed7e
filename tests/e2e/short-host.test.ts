/** @module End-to-end test that short `Host` headers still reach the routes (issue 15 item 1). */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { buildRequest, rawRequest } from "../support/raw-http.ts";
import { type Harness, KEY, NORMAL_URL, startHarness } from "../fuzz/harness.ts";
import { targetFromEnv } from "../support/service/process.ts";

/**
 * Issue 15 item 1: Elysia looked for the path from index 11 of the URL, so a
 * `Host` of one to three letters (a Compose service named `api` behind a proxy)
 * made every route 404. Every host form must reach the routes.
 */
const HOSTS = ["api", "a", "app", "vcs", "web", "api:80", "a:8080", "[::1]", "[::1]:80", "apis", "127.0.0.1"];
let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

describe(`any Host header reaches the routes (${targetFromEnv()})`, () => {
  for (const host of HOSTS) {
    test(`Host: ${host}`, async () => {
      const body = JSON.stringify({ url: NORMAL_URL, prompt: "What is this video about?" });
      const chat = await rawRequest(
        h.port,
        buildRequest("POST", "/chat", [["Host", host], ["Content-Type", "application/json"], [
          "Content-Length",
          String(body.length),
        ], ["X-Api-Key", KEY]], body),
        { timeoutMs: 15_000 },
      );
      expect(chat.status).toBe(200);
      expect(JSON.parse(chat.body.toString("utf8")).output).toBeString();
      const unauthorized = await rawRequest(
        h.port,
        buildRequest("POST", "/chat?x=1", [["Host", host], ["Content-Type", "application/json"], [
          "Content-Length",
          String(body.length),
        ]], body),
      );
      expect(unauthorized.status).toBe(401);
      const docs = await rawRequest(h.port, buildRequest("GET", "/swagger/json", [["Host", host]]));
      expect(docs.status).toBe(200);
      const missing = await rawRequest(h.port, buildRequest("GET", "/nowhere", [["Host", host]]));
      expect(missing.status).toBe(404);
      expect(JSON.parse(missing.body.toString("utf8")).error.message).toContain("No such path: /nowhere");
    }, 20_000);
  }
});
