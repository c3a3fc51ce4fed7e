/** @module Tests that the direct `POST /chat` path answers as the Elysia route does: status, headers and body. */
import { describe, expect, test } from "bun:test";
import { appWithFakes, TEST_KEY } from "../../support/fake-ports.ts";

const VIDEO = "https://www.youtube.com/watch?v=GJLlxj_dtq8";
const JSON_TYPE = { "content-type": "application/json" };

/** Requests covering each check of `POST /chat`, in the contract's order, and paths near it. */
const CASES: { name: string; path: string; method?: string; headers?: Record<string, string>; body?: string }[] = [
  {
    name: "a valid request",
    path: "/chat",
    headers: { ...JSON_TYPE, "x-api-key": TEST_KEY },
    body: JSON.stringify({ url: VIDEO }),
  },
  {
    name: "a valid request with a query string",
    path: "/chat?x=1",
    headers: { ...JSON_TYPE, "x-api-key": TEST_KEY },
    body: JSON.stringify({ url: VIDEO, prompt: "q" }),
  },
  { name: "no key", path: "/chat", headers: JSON_TYPE, body: JSON.stringify({ url: VIDEO }) },
  { name: "an unknown key", path: "/chat", headers: { ...JSON_TYPE, "x-api-key": "nope" }, body: "{" },
  {
    name: "a wrong content type",
    path: "/chat",
    headers: { "content-type": "text/plain", "x-api-key": TEST_KEY },
    body: "{}",
  },
  {
    name: "a body over the limit",
    path: "/chat",
    headers: { ...JSON_TYPE, "x-api-key": TEST_KEY },
    body: JSON.stringify({ url: VIDEO, prompt: "p".repeat(40_000) }),
  },
  { name: "invalid JSON", path: "/chat", headers: { ...JSON_TYPE, "x-api-key": TEST_KEY }, body: '{"url":' },
  { name: "an empty body", path: "/chat", headers: { ...JSON_TYPE, "x-api-key": TEST_KEY }, body: "" },
  {
    name: "a schema failure",
    path: "/chat",
    headers: { ...JSON_TYPE, "x-api-key": TEST_KEY },
    body: JSON.stringify({ url: VIDEO, language: "xx" }),
  },
  {
    name: "an unknown field",
    path: "/chat",
    headers: { ...JSON_TYPE, "x-api-key": TEST_KEY },
    body: JSON.stringify({ url: VIDEO, extra: 1 }),
  },
  {
    name: "a URL that is not YouTube",
    path: "/chat",
    headers: { ...JSON_TYPE, "x-api-key": TEST_KEY },
    body: JSON.stringify({ url: "https://example.com/v" }),
  },
  { name: "GET /chat", path: "/chat", method: "GET", headers: { "x-api-key": TEST_KEY } },
  {
    name: "POST /chat/ (trailing slash)",
    path: "/chat/",
    headers: { ...JSON_TYPE, "x-api-key": TEST_KEY },
    body: JSON.stringify({ url: VIDEO }),
  },
  {
    name: "POST /chats",
    path: "/chats",
    headers: { ...JSON_TYPE, "x-api-key": TEST_KEY },
    body: JSON.stringify({ url: VIDEO }),
  },
  { name: "POST /", path: "/", headers: { ...JSON_TYPE, "x-api-key": TEST_KEY }, body: "{}" },
];

async function described(
  response: Response,
): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const headers = Object.fromEntries(
    [...response.headers].map((
      [name, value],
    ) => [name, name === "server-timing" ? value.replace(/dur=[\d.]+/g, "dur=") : value]),
  );
  return { status: response.status, headers, body: await response.text() };
}

describe("the app's serve (the server's entry) and Elysia's handle answer alike", () => {
  for (const c of CASES) {
    test(`${c.name}: same status, headers and body`, async () => {
      const request = () =>
        new Request(`http://localhost${c.path}`, {
          method: c.method ?? "POST",
          headers: { "x-request-id": "same-id", ...c.headers },
          body: c.body,
        });
      const viaServe = await described(await appWithFakes().app.serve(request()));
      const viaHandle = await described(await appWithFakes().app.handle(request()));
      expect(viaServe).toEqual(viaHandle);
    });
  }

  test("serve takes the direct route for POST /chat only: other paths go through Elysia", async () => {
    const { app } = appWithFakes();
    const response = await app.serve(
      new Request("http://localhost/chatx", { method: "POST", headers: JSON_TYPE, body: "{}" }),
    );
    expect(response.status).toBe(404);
  });
});
