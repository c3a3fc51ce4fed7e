/** @module `/mcp` on the MCP listener: Streamable HTTP for both protocol eras, stateless, one SDK server a request. */
import { createMcpHandler, type McpRequestContext, type Server } from "@modelcontextprotocol/server";
import { quote } from "../../domain/chat-request.ts";
import { AppError } from "../../domain/errors.ts";
import type { KeyIdentity } from "../../domain/ports.ts";
import type { ToolsCore } from "../compose/service.ts";
import { INTERNAL_ERROR_MESSAGE } from "../contract/error-response.ts";
import { createCors } from "../http/cors.ts";
import { describeError } from "../http/framework-errors.ts";
import { readJsonText } from "../http/json-body.ts";
import { chooseRequestId } from "../http/request-id.ts";
import type { Logger } from "../log/logger.ts";
import type { RequestNotes } from "../log/request-log.ts";
import type { LiveStreams } from "../stream/live-streams.ts";
import { authenticate, cancelledIds, hasInitialize, MCP_PATH, refusal, rpcRefusal, sessionOf } from "./http-checks.ts";
import { following } from "./followed-stream.ts";
import { createMcpServer } from "./mcp-server.ts";

/** What the MCP endpoint serves with, and the public port's limits it applies. */
export interface McpHttpDeps {
  tools: ToolsCore;
  logger: Logger;
  /** The largest request body (`MAX_BODY_BYTES`). */
  maxBodyBytes: number;
  /** How long a body may take to arrive (`BODY_TIMEOUT_MS`). */
  bodyTimeoutMs: number;
  /** A call's time limit without a progress token (`REQUEST_TIMEOUT_MS`), and with one (`STREAM_TIMEOUT_MS`). */
  requestTimeoutMs: number;
  progressTimeoutMs: number;
  /** Longest silence on a response's event stream (`STREAM_KEEPALIVE_MS`). */
  keepAliveMs: number;
  /** Origins whose browser pages may call (`CORS_ORIGINS`); any other `Origin` is refused with 403. */
  corsOrigins?: readonly string[];
  /** Receives what the request log needs (request id, key id, error code). */
  notes?: RequestNotes;
  /** The responses' event streams in progress, for shutdown and Bun's idle bound. */
  calls?: LiveStreams;
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

/** What the server for one HTTP request needs from the checks before it: whose request, and how to stop its calls. */
interface Exchange {
  identity: KeyIdentity;
  session: string | undefined;
  /** Aborted by a shutdown that runs out of grace. */
  interrupted: AbortController;
  /** The server the SDK's handler asked for, once it has. */
  server?: Server;
}

/** What a remote caller is told of a bug: the details are in the service's log, which the operator reads. */
const INTERNAL_CALL_ERROR =
  "Something went wrong on our side; try again, and tell the service's operator the time of the call if it persists";

/**
 * The MCP endpoint. Checks run before any MCP message is read: path (404),
 * `Origin` (403 unless listed in `CORS_ORIGINS`), method (405: POST only),
 * API key (401), then the body as on the public port (415, 413, 408) and
 * JSON (400). Then the SDK's handler serves the request on either protocol
 * era, checking 2026-07-28's headers against the body, with an SDK server of
 * the request's own: no state outlives the request, so any instance behind a
 * load balancer can take any request. A 2025-era client is given a session id
 * at `initialize` only to name its requests (its `notifications/cancelled`
 * find their call through it, on whichever instance runs the call), never to
 * find state; a 2026-07-28 client cancels by closing the call's response.
 *
 * @returns the listener's fetch handler
 */
export function createMcpHttpHandler(deps: McpHttpDeps): (request: Request) => Promise<Response> {
  const cors = createCors(deps.corsOrigins ?? [], MCP_CORS);
  const exchanges = new WeakMap<Request, Exchange>();
  // One SDK handler for every request: it tells the eras apart, checks the 2026-07-28 headers against the body (400,
  // -32020), and asks `serverFor` for a server of the request's own. Every answer is an event stream, on 2026-07-28
  // as on the older era: it opens at once, so a long call is kept alive past proxies, followed for shutdown, and
  // cancelled when the client closes it.
  const sdk = createMcpHandler((context) => serverFor(context), {
    responseMode: "sse",
    keepAliveMs: deps.keepAliveMs,
    maxRequestBodySize: deps.maxBodyBytes,
    onerror: (error) => deps.logger.warn("mcp_protocol_error", { error: error.message.slice(0, 300) }),
  });

  const serverFor = (context: McpRequestContext): Server => {
    const exchange = context.requestInfo && exchanges.get(context.requestInfo);
    // The handler is handed the request `serve` checked; anything else is a bug, answered 500 by the SDK.
    if (!exchange) throw new Error("MCP request reached the SDK without passing the endpoint's checks");
    const { identity, session, interrupted } = exchange;
    const close = (): void => void exchange.server?.close().catch(() => {});
    const server = createMcpServer(
      { ...toolDeps(deps), identity },
      {
        callSignal: (id) => ({
          signal: interrupted.signal,
          dispose: deps.tools.cancels.watch(callKey(identity, session, id), close),
        }),
      },
    );
    server.onerror = (error) => deps.logger.warn("mcp_protocol_error", { error: error.message.slice(0, 300) });
    exchange.server = server;
    return server;
  };

  const serve = async (request: Request, headers: Record<string, string>): Promise<Response> => {
    if (pathOf(request.url) !== MCP_PATH) {
      throw new AppError("not_found", `No such path: ${pathOf(request.url).slice(0, 100)}; MCP is served at /mcp`);
    }
    const origin = request.headers.get("origin");
    if (origin !== null && !cors.allows(origin)) {
      const message =
        `Forbidden: pages from ${quote(origin, 100)} may not call this server (CORS_ORIGINS lists those ` +
        `that may)`;
      return rpcRefusal(403, -32000, message, headers);
    }
    const preflight = cors.preflight(request);
    if (preflight) return withHeaders(preflight, headers);
    if (request.method !== "POST") {
      throw new AppError("method_not_allowed", "Only POST is allowed on /mcp: the server keeps no session to stream");
    }
    const identity = await authenticate(request, deps.tools.apiKeys);
    if (deps.notes) deps.notes.of(request).keyId = identity.id;
    const session = sessionOf(request);
    const text = await readJsonText(request, deps.maxBodyBytes, deps.bodyTimeoutMs);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return rpcRefusal(400, -32700, "Parse error: the request body is not valid JSON", headers);
    }
    const messages = Array.isArray(body) ? body : [body];
    for (const id of cancelledIds(messages)) await deps.tools.cancels.cancel(callKey(identity, session, id));
    if (session === undefined && hasInitialize(messages)) headers["mcp-session-id"] = crypto.randomUUID();
    return await exchange(request, body, { identity, session, interrupted: new AbortController() }, headers);
  };

  /** Hands the checked request to the SDK's handler, and follows its response's event stream. */
  const exchange = async (
    request: Request,
    body: unknown,
    state: Exchange,
    headers: Record<string, string>,
  ): Promise<Response> => {
    exchanges.set(request, state);
    // Closing the server ends its event stream and aborts its calls: a cancelled call's work stops, no answer is sent.
    const close = (): void => void state.server?.close().catch(() => {});
    const response = await sdk.fetch(request, { parsedBody: body });
    if (!response.body || !response.headers.get("content-type")?.startsWith("text/event-stream")) {
      close();
      return withHeaders(response, headers);
    }
    let ended!: () => void;
    const done = new Promise<void>((resolve) => (ended = resolve));
    const stop = (): void => {
      close();
      ended();
    };
    // The client going away (its connection closed) cancels the calls, as a stream's caller leaving does; on
    // 2026-07-28 that is how a client cancels a call.
    request.signal.addEventListener("abort", stop, { once: true });
    const followed = withHeaders(
      new Response(following(response.body, stop), { status: response.status, headers: response.headers }),
      headers,
    );
    // A shutdown that runs out of grace ends each call with `overloaded`, answered before the connection is cut.
    return deps.calls?.add({ interrupt: (reason) => state.interrupted.abort(reason) }, followed, done) ?? followed;
  };

  return async (request) => {
    const requestId = chooseRequestId(request.headers.get("x-request-id"));
    if (deps.notes) deps.notes.of(request).requestId = requestId;
    const headers: Record<string, string> = { "x-request-id": requestId };
    if (cors.enabled) Object.assign(headers, cors.responseHeaders(request));
    try {
      return await serve(request, headers);
    } catch (error) {
      const appError = error instanceof AppError
        ? error
        : new AppError("internal_error", INTERNAL_ERROR_MESSAGE, { cause: error });
      if (appError.code === "internal_error") {
        deps.logger.error("unhandled_error", { request_id: requestId, error: describeError(error) });
      }
      if (deps.notes) deps.notes.of(request).errorCode = appError.code;
      return refusal(appError, requestId, headers);
    }
  };
}

/** What every call of one request needs besides its caller's identity. */
function toolDeps(deps: McpHttpDeps) {
  return {
    chat: deps.tools.chat,
    transcripts: deps.tools.transcripts,
    rateLimiter: deps.tools.rateLimiter,
    usage: deps.tools.usage,
    logger: deps.logger,
    maxArgumentBytes: deps.maxBodyBytes,
    requestTimeoutMs: deps.requestTimeoutMs,
    progressTimeoutMs: deps.progressTimeoutMs,
    internalErrorMessage: INTERNAL_CALL_ERROR,
  };
}

/** Names one call wherever it runs: the caller's key, the client's session, and the request id within it. */
function callKey(identity: KeyIdentity, session: string | undefined, requestId: string | number): string {
  return JSON.stringify([identity.id, session ?? null, requestId]);
}

function withHeaders(response: Response, headers: Record<string, string>): Response {
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

function pathOf(url: string): string {
  return URL.canParse(url) ? new URL(url).pathname : url;
}
