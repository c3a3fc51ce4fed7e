import type { AnswerUsage } from "../domain/ports.ts";
import type { Logger, LogFields } from "./logger.ts";

/** What the HTTP app learns about a request while answering it, for its log line. */
export interface RequestFacts {
  /** The caller's key id (never the key itself). */
  keyId?: string;
  videoId?: string;
  /** Length of the prompt as processed, in code points; the text itself is never logged. */
  promptLength?: number;
  cache?: "hit" | "shared" | "miss";
  transcriptMs?: number;
  generationMs?: number;
  usage?: AnswerUsage;
  errorCode?: string;
}

/** Where the HTTP app records facts about the request it is answering. */
export interface RequestNotes {
  note(request: Request, facts: RequestFacts): void;
}

type Handler = (request: Request) => Response | Promise<Response>;

/**
 * One structured log line per request, whatever its outcome (404s and
 * framework errors included), written when the handler has answered.
 *
 * @param options.logger where lines go
 * @param options.now a monotonic clock in milliseconds
 * @returns the notes to give the HTTP app, and `wrap`, which logs around a fetch handler
 */
export function createRequestLog(options: { logger: Logger; now?: () => number }) {
  const now = options.now ?? (() => performance.now());
  const facts = new WeakMap<Request, RequestFacts>();
  const notes: RequestNotes = {
    note(request, more) {
      facts.set(request, { ...facts.get(request), ...more });
    },
  };
  const wrap = (handler: Handler): ((request: Request) => Promise<Response>) => async (request) => {
    const started = now();
    try {
      const response = await handler(request);
      write(request, response.status, response.headers.get("x-request-id"), now() - started);
      return response;
    } catch (error) {
      write(request, 500, null, now() - started);
      throw error;
    }
  };
  const write = (request: Request, status: number, requestId: string | null, ms: number): void => {
    const fields = requestFields(request, status, requestId, ms, facts.get(request) ?? {});
    if (status >= 500) options.logger.error("request", fields);
    else options.logger.info("request", fields);
  };
  return { notes, wrap };
}

/** The log line's fields; absent facts are left out rather than logged as null. */
export function requestFields(request: Request, status: number, requestId: string | null, ms: number, facts: RequestFacts): LogFields {
  const fields: LogFields = {
    request_id: requestId ?? undefined,
    method: request.method,
    path: pathOf(request.url),
    status,
    duration_ms: round(ms),
    key_id: facts.keyId,
    video_id: facts.videoId,
    prompt_length: facts.promptLength,
    cache: facts.cache,
    transcript_ms: facts.transcriptMs === undefined ? undefined : round(facts.transcriptMs),
    generation_ms: facts.generationMs === undefined ? undefined : round(facts.generationMs),
    llm_calls: facts.usage?.calls,
    input_tokens: facts.usage?.inputTokens,
    output_tokens: facts.usage?.outputTokens,
    error_code: facts.errorCode,
  };
  for (const name of Object.keys(fields)) if (fields[name] === undefined) delete fields[name];
  return fields;
}

// The query string is left out: it is caller-controlled and may carry anything.
function pathOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start < 0) return "/";
  const end = url.search(/[?#]/);
  return url.slice(start, end < 0 ? undefined : end).slice(0, 200);
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}
