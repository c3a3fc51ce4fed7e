/** @module Tests of the HTTP app: what takes `POST /chat`, other paths and methods, the docs and CORS. */
import { describe, expect, test } from "bun:test";
import { type App, BASE, chat, expectError, VIDEO } from "../../support/http-app-calls.ts";
import { appWithFakes, TEST_KEY } from "../../support/fake/ports.ts";

describe("routes beside POST /chat", () => {
  test("404 not_found for any other path, even without a key", async () => {
    const { app } = appWithFakes();
    await expectError(await app.fetch(new Request(`${BASE}/nope`)), 404, "not_found");
    await expectError(await app.fetch(new Request(`${BASE}/chat/extra`, { method: "POST" })), 404, "not_found");
    await expectError(await app.fetch(new Request(`${BASE}/`)), 404, "not_found");
  });

  test("POST /chat is its exact path, or with a trailing slash: a query string may follow, a path near it is 404", async () => {
    const { app } = appWithFakes();
    const post = (path: string) =>
      app.fetch(
        new Request(`${BASE}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-api-key": TEST_KEY },
          body: JSON.stringify({ url: VIDEO }),
        }),
      );
    for (const path of ["/chat?x=1", "/chat/", "/chat/?x=1"]) expect((await post(path)).status).toBe(200);
    for (const path of ["/chats", "/chatx", "/Chat", "/x/chat", "/chat//", "/chat/x"]) {
      await expectError(await post(path), 404, "not_found");
    }
  });

  test.each(["GET", "PUT", "PATCH", "DELETE", "OPTIONS"])(
    "405 method_not_allowed with Allow: POST for %s /chat",
    async (method) => {
      const response = await chat(appWithFakes().app, { url: VIDEO }, {}, method);
      await expectError(response, 405, "method_not_allowed");
      expect(response.headers.get("allow")).toBe("POST");
    },
  );

  test("a wrong method comes before the key", async () => {
    await expectError(await app().fetch(new Request(`${BASE}/chat`, { method: "DELETE" })), 405, "method_not_allowed");
  });
});

describe("the docs", () => {
  test("are served without a key and list POST /chat only", async () => {
    const response = await app().fetch(new Request(`${BASE}/swagger/json`));
    expect(response.status).toBe(200);
    const document = await response.json();
    expect(Object.keys(document.paths)).toEqual(["/chat"]);
    expect(Object.keys(document.paths["/chat"])).toEqual(["post"]);
    const page = await app().fetch(new Request(`${BASE}/swagger`));
    expect(page.status).toBe(200);
    expect(page.headers.get("x-request-id")).toBeTruthy();
  });
});

function app(): App {
  return appWithFakes().app;
}

describe("CORS", () => {
  const preflight = (origin: string) =>
    new Request(`${BASE}/chat`, {
      method: "OPTIONS",
      headers: {
        origin,
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type, x-api-key",
      },
    });

  test("is off by default: a preflight is 405 and no CORS header is sent", async () => {
    const { app } = appWithFakes();
    const response = await app.fetch(preflight("https://app.example"));
    expect(response.status).toBe(405);
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
  });

  test("answers a preflight from a listed origin and marks its responses", async () => {
    const { app } = appWithFakes({ corsOrigins: ["https://app.example"] });
    const response = await app.fetch(preflight("https://app.example"));
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe("https://app.example");
    expect(response.headers.get("access-control-allow-headers")).toContain("x-api-key");
    const answer = await chat(app, { url: VIDEO }, { origin: "https://app.example" });
    expect(answer.headers.get("access-control-allow-origin")).toBe("https://app.example");
    expect(answer.headers.get("access-control-expose-headers")).toContain("x-request-id");
  });

  test("never echoes an origin that is not listed", async () => {
    const { app } = appWithFakes({ corsOrigins: ["https://app.example"] });
    expect((await app.fetch(preflight("https://evil.example"))).status).toBe(405);
    expect(
      (await chat(app, { url: VIDEO }, { origin: "https://evil.example" })).headers.get("access-control-allow-origin"),
    ).toBeNull();
  });
});
