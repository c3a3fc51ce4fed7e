/** @module Sends every YouTube request on the configured origin, time-limited, size-capped and abortable. */
import { AppError, isAppError } from "../../domain/errors.ts";
import { linkSignals } from "../../domain/linked-signal.ts";
import { limitBody, mebibytes } from "../body-limit.ts";
import { BROWSER_USER_AGENT } from "./innertube-clients.ts";
import { onOrigin } from "./origin.ts";

export interface TransportOptions {
  /** Origin of every request (`YOUTUBE_BASE_URL`). */
  baseUrl: string;
  /** Time limit of each request, body included. */
  timeoutMs: number;
  /** Proxy-aware on the server; a loopback fake's in tests. */
  fetch?: typeof fetch;
  /** Most bytes of one response body (10 MiB by default: real watch pages are about 1.5 MB). */
  maxBodyBytes?: number;
}

/** One request to YouTube; `url` may be absolute (its origin is replaced) or root-relative. */
export interface YoutubeRequest {
  method?: "GET" | "POST";
  body?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** How every YouTube request is sent: on the configured origin, time-limited, abortable. */
export interface YoutubeTransport {
  /**
   * @returns the body of a 2xx response
   * @throws {AppError} upstream_blocked (HTTP 429, Google's "sorry" redirect, a reCAPTCHA page),
   *   upstream_timeout, or upstream_error (other statuses, network failures,
   *   a body over the size cap)
   */
  text(url: string, init?: YoutubeRequest): Promise<string>;
  /**
   * One binary body (a range of a media file), same origin rewrite, time limit and status checks as `text`
   * (an HTML reCAPTCHA page is upstream_blocked too).
   *
   * @param maxBytes most bytes of the body
   * @returns the body and its headers (`content-range` tells a range's total)
   */
  bytes(url: string, init: YoutubeRequest, maxBytes: number): Promise<{ body: Uint8Array; headers: Headers }>;
  /**
   * @param signal the caller's abort signal
   * @returns a `fetch` for third-party code: same origin rewrite and time limit, no status checks
   */
  hook(signal?: AbortSignal): typeof fetch;
}

/** Every request looks like a browser's unless it says otherwise (a player call sends its app's user agent). */
const HEADERS = { "accept-language": "en-US,en;q=0.9", "user-agent": BROWSER_USER_AGENT };
const MAX_BODY_BYTES = 10 * 1024 * 1024;
/** What marks Google's reCAPTCHA page (the "unusual traffic" wall). */
const RECAPTCHA = 'class="g-recaptcha"';

/** @returns the transport every YouTube adapter sends through */
export function createYoutubeTransport(options: TransportOptions): YoutubeTransport {
  const fetcher = options.fetch ?? fetch;
  const seconds = options.timeoutMs / 1000;
  const maxBytes = options.maxBodyBytes ?? MAX_BODY_BYTES;
  const capped = (response: Response, signal: AbortSignal, onEnd?: () => void) =>
    limitBody(
      response,
      maxBytes,
      () =>
        new AppError("upstream_error", `YouTube sent a response larger than ${mebibytes(maxBytes)}; try again later`),
      signal,
      onEnd,
    );

  async function text(url: string, init: YoutubeRequest = {}): Promise<string> {
    return await send(url, init, async (response, signal) => {
      const body = await capped(response, signal).text();
      // The reCAPTCHA wall may answer any URL, with a 200: it is a block wherever it comes.
      if (body.includes(RECAPTCHA)) throw recaptcha();
      return body;
    });
  }

  async function bytes(
    url: string,
    init: YoutubeRequest,
    max: number,
  ): Promise<{ body: Uint8Array; headers: Headers }> {
    return await send(url, init, async (response, signal) => {
      const tooLarge = () =>
        new AppError("upstream_error", `YouTube sent a response larger than ${mebibytes(max)}; try again later`);
      const body = new Uint8Array(await limitBody(response, max, tooLarge, signal).arrayBuffer());
      // Media comes as bytes; an HTML page instead may be the reCAPTCHA wall, a block here as anywhere.
      if (
        /text\/html/i.test(response.headers.get("content-type") ?? "") &&
        new TextDecoder().decode(body).includes(RECAPTCHA)
      ) throw recaptcha();
      return { body, headers: response.headers };
    });
  }

  async function send<T>(
    url: string,
    init: YoutubeRequest,
    read: (response: Response, signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    const linked = linkSignals([init.signal], { ms: options.timeoutMs });
    const { signal } = linked;
    try {
      const response = await fetcher(onOrigin(url, options.baseUrl), {
        method: init.method ?? "GET",
        body: init.body,
        headers: { ...HEADERS, ...init.headers },
        signal,
        redirect: "manual",
      });
      if (!isOk(response)) await response.body?.cancel().catch(() => {});
      assertOk(response);
      return await read(response, signal);
    } catch (error) {
      if (isAppError(error)) throw error;
      if (signal.aborted) {
        throw new AppError("upstream_timeout", `YouTube did not answer within ${seconds} s; try again later`, {
          cause: error,
        });
      }
      throw new AppError("upstream_error", "Could not reach YouTube; try again later", { cause: error });
    } finally {
      linked.dispose();
    }
  }

  function hook(signal?: AbortSignal): typeof fetch {
    const hooked = (input: string | URL | Request, init: RequestInit = {}) => {
      const url = onOrigin(input instanceof Request ? input.url : String(input), options.baseUrl);
      if (url.pathname === "/api/timedtext") url.searchParams.delete("fmt");
      // The links are cut once the body ends (or the request fails): nothing outlives the exchange.
      const linked = linkSignals([signal, init.signal], { ms: options.timeoutMs });
      return fetcher(url, { ...init, signal: linked.signal, redirect: "manual" }).then(
        (response) => capped(response, linked.signal, linked.dispose),
        (error: unknown) => {
          linked.dispose();
          throw error;
        },
      );
    };
    return hooked as typeof fetch;
  }

  return { text, bytes, hook };
}

function recaptcha(): AppError {
  return new AppError(
    "upstream_blocked",
    "YouTube asked this server to solve a reCAPTCHA (unusual traffic); try again later",
    { retryAfterSeconds: 60 },
  );
}

function isOk(response: Response): boolean {
  return response.status >= 200 && response.status < 300 && !/\/sorry\b/.test(response.headers.get("location") ?? "");
}

function assertOk(response: Response): void {
  const cause = new HttpStatus(response.status);
  if (response.status === 429 || /\/sorry\b/.test(response.headers.get("location") ?? "")) {
    throw new AppError("upstream_blocked", "YouTube is rate-limiting this server (HTTP 429); try again later", {
      retryAfterSeconds: retryAfter(response) ?? 60,
      cause,
    });
  }
  if (response.status < 200 || response.status >= 300) {
    throw new AppError("upstream_error", `YouTube answered with HTTP ${response.status}; try again later`, { cause });
  }
}

/** The status of a refused response, kept as its error's cause (a 400 on a player call, a 429 on a translation). */
class HttpStatus extends Error {
  override name = "HttpStatus";
  constructor(readonly status: number) {
    super(`HTTP ${status}`);
  }
}

/** @returns the HTTP status YouTube refused a request with, when `error` is such a refusal */
export function httpStatusOf(error: unknown): number | undefined {
  return isAppError(error) && error.cause instanceof HttpStatus ? error.cause.status : undefined;
}

function retryAfter(response: Response): number | undefined {
  const value = Number(response.headers.get("retry-after"));
  return Number.isFinite(value) && value > 0 ? Math.ceil(value) : undefined;
}

/**
 * @param transport the transport to watch
 * @param count called once per request sent (undefined: the transport as it is)
 * @returns the same transport, counting its requests
 */
export function countingTransport(transport: YoutubeTransport, count?: () => void): YoutubeTransport {
  if (!count) return transport;
  return {
    text(url, init) {
      count();
      return transport.text(url, init);
    },
    bytes(url, init, maxBytes) {
      count();
      return transport.bytes(url, init, maxBytes);
    },
    hook(signal) {
      const hooked = transport.hook(signal);
      return ((input: string | URL | Request, init?: RequestInit) => {
        count();
        return hooked(input, init);
      }) as typeof fetch;
    },
  };
}
