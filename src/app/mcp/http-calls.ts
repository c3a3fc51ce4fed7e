/** @module The calls of a checked `/mcp` request: an SDK server of its own, its event stream followed, cancellation. */
import { createMcpHandler, type Server } from "@modelcontextprotocol/server";
import type { KeyIdentity } from "../../domain/ports.ts";
import type { ToolsCore } from "../compose/service.ts";
import type { Logger } from "../log/logger.ts";
import type { LiveStreams } from "../stream/live-streams.ts";
import { following } from "./followed-stream.ts";
import { cancelledIds, withHeaders } from "./http-checks.ts";
import { createMcpServer } from "./mcp-server.ts";

/** What the calls of `/mcp` are served with. */
export interface HttpCallDeps {
  tools: ToolsCore;
  logger: Logger;
  /** The largest request body (`MAX_BODY_BYTES`), and so the largest arguments. */
  maxBodyBytes: number;
  /** A call's time limit without a progress token (`REQUEST_TIMEOUT_MS`), and with one (`STREAM_TIMEOUT_MS`). */
  requestTimeoutMs: number;
  progressTimeoutMs: number;
  /** Longest silence on a response's event stream (`STREAM_KEEPALIVE_MS`). */
  keepAliveMs: number;
  /** The responses' event streams in progress, for shutdown and Bun's idle bound. */
  calls?: LiveStreams;
}

/** Whose request it is: the verified key, and the session a 2025-era client names its requests by. */
export interface Caller {
  identity: KeyIdentity;
  session: string | undefined;
}

/** A checked request as the SDK's handler serves it. */
interface ServedRequest extends Caller {
  /** Aborted by a shutdown that runs out of grace. */
  interrupted: AbortController;
  /** The server the SDK's handler asked for, once it has. */
  server?: Server;
}

/** The calls of checked requests. */
export interface HttpCalls {
  /** Cancels, wherever they run, the caller's calls that the messages' `notifications/cancelled` name. */
  cancelNamed(messages: readonly unknown[], caller: Caller): Promise<void>;
  /** Hands the checked request to the SDK's handler, and follows its response's event stream. */
  serve(request: Request, body: unknown, caller: Caller, headers: Record<string, string>): Promise<Response>;
}

/** What the handler tells a remote caller of a bug: the details are in the service's log, which the operator reads. */
const INTERNAL_CALL_ERROR =
  "Something went wrong on our side; try again, and tell the service's operator the time of the call if it persists";

/**
 * One SDK handler for every request: it tells the eras apart, checks the 2026-07-28 headers against the body (400,
 * -32020), and asks for a server of the request's own. Every answer is an event stream, on 2026-07-28 as on the older
 * era: it opens at once, so a long call is kept alive past proxies, followed for shutdown, and cancelled when the
 * client closes it.
 */
export function createHttpCalls(deps: HttpCallDeps): HttpCalls {
  const served = new WeakMap<Request, ServedRequest>();
  const sdk = createMcpHandler((context) => serverFor(deps, context.requestInfo && served.get(context.requestInfo)), {
    responseMode: "sse",
    keepAliveMs: deps.keepAliveMs,
    maxRequestBodySize: deps.maxBodyBytes,
    onerror: (error) => deps.logger.warn("mcp_protocol_error", { error: error.message.slice(0, 300) }),
  });
  return {
    async cancelNamed(messages, caller) {
      for (const id of cancelledIds(messages)) await deps.tools.cancels.cancel(callKey(caller, id));
    },
    async serve(request, body, caller, headers) {
      const call: ServedRequest = { ...caller, interrupted: new AbortController() };
      served.set(request, call);
      const response = await sdk.fetch(request, { parsedBody: body });
      if (!response.body || !response.headers.get("content-type")?.startsWith("text/event-stream")) {
        closeServer(call);
        return withHeaders(response, headers);
      }
      return withHeaders(follow(deps.calls, request, call, response), headers);
    },
  };
}

/** The server of one request, its calls stopped by a cancellation that names them or by a shutdown. */
function serverFor(deps: HttpCallDeps, call: ServedRequest | undefined): Server {
  // The handler is handed the request `serve` checked; anything else is a bug, answered 500 by the SDK.
  if (!call) throw new Error("MCP request reached the SDK without passing the endpoint's checks");
  const server = createMcpServer(
    { ...toolDeps(deps), identity: call.identity },
    {
      callSignal: (id) => ({
        signal: call.interrupted.signal,
        dispose: deps.tools.cancels.watch(callKey(call, id), () => closeServer(call)),
      }),
    },
  );
  server.onerror = (error) => deps.logger.warn("mcp_protocol_error", { error: error.message.slice(0, 300) });
  call.server = server;
  return server;
}

/**
 * Follows the SDK's event stream: its end, or the client going away, closes the request's server, and a shutdown
 * that runs out of grace interrupts its calls.
 *
 * @returns the response with the followed stream, noted among the live ones
 */
function follow(live: LiveStreams | undefined, request: Request, call: ServedRequest, response: Response): Response {
  let ended!: () => void;
  const done = new Promise<void>((resolve) => (ended = resolve));
  const stop = (): void => {
    closeServer(call);
    ended();
  };
  // The client going away (its connection closed) cancels the calls, as a stream's caller leaving does; on
  // 2026-07-28 that is how a client cancels a call.
  request.signal.addEventListener("abort", stop, { once: true });
  const followed = new Response(following(response.body!, stop), {
    status: response.status,
    headers: response.headers,
  });
  // A shutdown that runs out of grace ends each call with `overloaded`, answered before the connection is cut.
  return live?.add({ interrupt: (reason) => call.interrupted.abort(reason) }, followed, done) ?? followed;
}

/** Closing the server ends its event stream and aborts its calls: a cancelled call's work stops, no answer is sent. */
function closeServer(call: ServedRequest): void {
  void call.server?.close().catch(() => {});
}

/** What every call of one request needs besides its caller's identity. */
function toolDeps(deps: HttpCallDeps) {
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
function callKey(caller: Caller, requestId: string | number): string {
  return JSON.stringify([caller.identity.id, caller.session ?? null, requestId]);
}
