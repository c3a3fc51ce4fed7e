/** @module Calls to the HTTP app in process for its tests: `POST /chat` with the test key, and the error body's checks. */
import { expect } from "bun:test";
import type { ErrorCode } from "../../src/domain/errors.ts";
import { type appWithFakes, TEST_KEY } from "./fake/ports.ts";

export const BASE = "http://localhost";
export const VIDEO = "https://www.youtube.com/watch?v=GJLlxj_dtq8";

export type App = ReturnType<typeof appWithFakes>["app"];

/** Sends `/chat` (POST by default) with the test key and a JSON body. */
export function chat(
  app: App,
  body: unknown,
  headers: Record<string, string> = {},
  method = "POST",
): Promise<Response> {
  return app.fetch(
    new Request(`${BASE}/chat`, {
      method,
      headers: { "content-type": "application/json", "x-api-key": TEST_KEY, ...headers },
      body: method === "GET" || method === "HEAD" ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    }),
  );
}

/** Checks an error answer: its status, JSON content type, code, a message, and the request id it carries. */
export async function expectError(
  response: Response,
  status: number,
  code: ErrorCode,
): Promise<{ message: string; request_id: string }> {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
  const body = await response.json();
  expect(body.error.code).toBe(code);
  expect(typeof body.error.message).toBe("string");
  expect(body.error.request_id).toBe(response.headers.get("x-request-id"));
  return body.error;
}
