/** @module What `/mcp` checks before any MCP message is read: path, Origin, method, API key; and its refusals. */
import { quote } from "../../domain/chat-request.ts";
import { AppError } from "../../domain/errors.ts";
import type { ApiKeys, KeyIdentity } from "../../domain/ports.ts";
import { errorResponse } from "../contract/error-response.ts";
import type { Cors } from "../http/cors.ts";
import { pathOf } from "../http/framework-errors.ts";

/** The one path the MCP listener serves. */
export const MCP_PATH = "/mcp";

/** @throws {AppError} `not_found` for any path but {@link MCP_PATH} (a query may follow it) */
export function checkPath(request: Request): void {
  const path = pathOf(request.url);
  if (path !== MCP_PATH) throw new AppError("not_found", `No such path: ${path.slice(0, 100)}; MCP is served at /mcp`);
}

/** @throws {AppError} `method_not_allowed` for any method but POST (a preflight is answered before) */
export function checkMethod(request: Request): void {
  if (request.method !== "POST") {
    throw new AppError("method_not_allowed", "Only POST is allowed on /mcp: the server keeps no session to stream");
  }
}

/**
 * A browser page may call only from an origin `CORS_ORIGINS` lists: any other is refused with 403.
 *
 * @returns the refusal, or undefined when the request sends no `Origin` or a listed one
 */
export function refuseOrigin(cors: Cors, request: Request, headers: Record<string, string>): Response | undefined {
  const origin = request.headers.get("origin");
  if (origin === null || cors.allows(origin)) return undefined;
  const message = `Forbidden: pages from ${quote(origin, 100)} may not call this server (CORS_ORIGINS lists those ` +
    `that may)`;
  return rpcRefusal(403, -32000, message, headers);
}

/** What `WWW-Authenticate` says on a 401 (RFC 6750): send the key as a bearer token (or in `x-api-key`). */
const CHALLENGE = 'Bearer realm="video-chat-service"';

/**
 * The key a request carries: `x-api-key`, else `Authorization: Bearer <key>`
 * (the scheme in any case, as RFC 9110 says). The key itself never goes to a log.
 *
 * @returns the key, or undefined when neither header carries one
 */
export function keyOf(request: Request): string | undefined {
  const header = request.headers.get("x-api-key")?.trim();
  if (header) return header;
  const match = /^bearer\s+(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "");
  return match?.[1];
}

/**
 * @returns the caller's identity
 * @throws {AppError} `unauthorized` when the request carries no key or an unknown one
 */
export async function authenticate(request: Request, apiKeys: ApiKeys): Promise<KeyIdentity> {
  const key = keyOf(request);
  if (!key) {
    throw new AppError(
      "unauthorized",
      "Missing API key; send it in the x-api-key header or as Authorization: Bearer <key>",
    );
  }
  const identity = await apiKeys.verify(key);
  if (!identity) throw new AppError("unauthorized", "Unknown API key; check the x-api-key or Authorization header");
  return identity;
}

/** A session id as the MCP specification allows it: visible ASCII only, here at most 128 characters. */
const SESSION_ID = /^[\x21-\x7E]{1,128}$/;

/**
 * @returns the `Mcp-Session-Id` the client sent, if any
 * @throws {AppError} `invalid_request` for one that is not visible ASCII or is too long
 */
export function sessionOf(request: Request): string | undefined {
  const sent = request.headers.get("mcp-session-id");
  if (sent === null) return undefined;
  if (!SESSION_ID.test(sent)) {
    throw new AppError(
      "invalid_request",
      "The Mcp-Session-Id header must be 1 to 128 visible ASCII characters, as the server gave it",
    );
  }
  return sent;
}

/** The contract's error answer, with `WWW-Authenticate` on a 401 and `Allow` on a 405. */
export function refusal(error: AppError, requestId: string, headers: Record<string, string>): Response {
  const extra: Record<string, string> = { ...headers };
  if (error.code === "unauthorized") extra["www-authenticate"] = CHALLENGE;
  return errorResponse(error, requestId, extra);
}

/**
 * A refusal the contract has no code for, in the JSON-RPC form the MCP SDK's own transport answers with
 * (`{"jsonrpc":"2.0","error":{...},"id":null}`).
 *
 * @param rpcCode the JSON-RPC error code (-32700 for a body that is not JSON, -32000 otherwise)
 */
export function rpcRefusal(
  status: number,
  rpcCode: number,
  message: string,
  headers: Record<string, string>,
): Response {
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code: rpcCode, message }, id: null }), {
    status,
    headers: { ...headers, "content-type": "application/json" },
  });
}

/** Sets the endpoint's headers (request id, CORS, session id) on a response made elsewhere: the SDK's, a preflight. */
export function withHeaders(response: Response, headers: Record<string, string>): Response {
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

/** Whether the parsed body holds an `initialize` request (alone, or in a batch). */
export function hasInitialize(messages: readonly unknown[]): boolean {
  return messages.some((m) => isObject(m) && m.method === "initialize" && "id" in m);
}

/** The ids of the requests the body's `notifications/cancelled` name. */
export function cancelledIds(messages: readonly unknown[]): (string | number)[] {
  return messages.flatMap((m) => {
    if (!isObject(m) || m.method !== "notifications/cancelled" || !isObject(m.params)) return [];
    const id = m.params.requestId;
    return typeof id === "string" || typeof id === "number" ? [id] : [];
  });
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
