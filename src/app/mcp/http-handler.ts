/** @module `/mcp` on the MCP listener: Streamable HTTP for both protocol eras, stateless, one SDK server a request. */
import type { ApiKeys, KeyIdentity } from "../../domain/ports.ts";
import { type Cors, createCors } from "../http/cors.ts";
import { createErrorAnswers } from "../http/error-answer.ts";
import { createExchanges, type Exchange } from "../http/exchange.ts";
import { readJsonText } from "../http/json-body.ts";
import type { RequestNotes } from "../log/request-log.ts";
import { createHttpCalls, type HttpCallDeps } from "./http-calls.ts";
import {
  authenticate,
  checkMethod,
  checkPath,
  hasInitialize,
  refusal,
  refuseOrigin,
  rpcRefusal,
  sessionOf,
  withHeaders,
} from "./http-checks.ts";

/** What the MCP endpoint serves with, and the public port's limits it applies. */
export interface McpHttpDeps extends HttpCallDeps {
  /** How long a body may take to arrive (`BODY_TIMEOUT_MS`). */
  bodyTimeoutMs: number;
  /** Origins whose browser pages may call (`CORS_ORIGINS`); any other `Origin` is refused with 403. */
  corsOrigins?: readonly string[];
  /** Receives what the request log needs (request id, key id, error code). */
  notes?: RequestNotes;
}

/**
 * A browser page's preflight must allow what either era's client sends: 2026-07-28 adds `Mcp-Method` and `Mcp-Name`
 * to `MCP-Protocol-Version`; 2025-era clients send `Mcp-Session-Id`. The page may read the session id the server gives
 * at `initialize`, the request id, `Retry-After` on a refusal, and `WWW-Authenticate` on a 401.
 */
export const MCP_CORS = {
  methods: "POST",
  allowHeaders: "content-type, accept, x-api-key, authorization, x-request-id, mcp-session-id, mcp-protocol-version, " +
    "mcp-method, mcp-name",
  exposeHeaders: "x-request-id, mcp-session-id, retry-after, www-authenticate",
};

/** The body's JSON-RPC messages: as sent (one, or a batch), and as a list. */
interface Messages {
  body: unknown;
  list: unknown[];
}

/**
 * The MCP endpoint, its request followed as `POST /chat`'s is (request id, CORS, request log, error answers). Checks
 * run before any MCP message is read: path (404), `Origin` (403 unless listed in `CORS_ORIGINS`), method (405: POST
 * only), API key (401), then the body as on the public port (415, 413, 408) and JSON (400). Then the SDK's handler
 * serves the request on either protocol era, checking 2026-07-28's headers against the body, with an SDK server of
 * the request's own: no state outlives the request, so any instance behind a load balancer can take any request. A
 * 2025-era client is given a session id at `initialize` only to name its requests (its `notifications/cancelled`
 * find their call through it, on whichever instance runs the call), never to find state; a 2026-07-28 client cancels
 * by closing the call's response.
 *
 * @returns the listener's fetch handler
 */
export function createMcpHttpHandler(deps: McpHttpDeps): (request: Request) => Promise<Response> {
  const cors = createCors(deps.corsOrigins ?? [], MCP_CORS);
  const exchanges = createExchanges({ notes: deps.notes, cors });
  const errors = createErrorAnswers({ ...deps.tools, logger: deps.logger, exchanges });
  const calls = createHttpCalls(deps);
  return async (request) => {
    const exchange = exchanges.of(request);
    const headers = exchanges.headers(exchange);
    try {
      checkPath(request);
      const early = refuseOrigin(cors, request, headers) ?? answerPreflight(cors, request, headers);
      if (early) return early;
      checkMethod(request);
      const identity = await verifyKey(deps.tools.apiKeys, exchange);
      const caller = { identity, session: sessionOf(request) };
      const messages = await readMessages(deps, request);
      if (!messages) return rpcRefusal(400, -32700, "Parse error: the request body is not valid JSON", headers);
      await calls.cancelNamed(messages.list, caller);
      if (opensSession(caller.session, messages)) headers["mcp-session-id"] = crypto.randomUUID();
      return await calls.serve(request, messages.body, caller, headers);
    } catch (error) {
      // A refusal before any call settles no key's budget (each tool call is admitted on its own): the contract's
      // error, noted and logged as `POST /chat`'s, with no RateLimit or Quota headers.
      return refusal(errors.settle("UNKNOWN", error, exchange), exchange.requestId, headers);
    }
  };
}

/** @returns the answer to a preflight from an allowed origin, with the endpoint's headers; else undefined */
function answerPreflight(cors: Cors, request: Request, headers: Record<string, string>): Response | undefined {
  const preflight = cors.preflight(request);
  return preflight && withHeaders(preflight, headers);
}

/** The caller's key (`x-api-key` or a bearer token), verified and noted on the exchange and its log line. */
async function verifyKey(apiKeys: ApiKeys, exchange: Exchange): Promise<KeyIdentity> {
  const identity = await authenticate(exchange.request, apiKeys);
  exchange.identity = identity;
  exchange.facts.keyId = identity.id;
  return identity;
}

/** @returns the body's messages, read within the public port's limits; undefined when the body is not JSON */
async function readMessages(deps: McpHttpDeps, request: Request): Promise<Messages | undefined> {
  const text = await readJsonText(request, deps.maxBodyBytes, deps.bodyTimeoutMs);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  return { body, list: Array.isArray(body) ? body : [body] };
}

/** A 2025-era client's `initialize` without a session is given one, to name its later requests by. */
function opensSession(session: string | undefined, messages: Messages): boolean {
  return session === undefined && hasInitialize(messages.list);
}
