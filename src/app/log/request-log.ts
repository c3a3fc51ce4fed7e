/** @module One structured log line per request, with the facts the HTTP app noted while answering it. */
import type { AnswerUsage, WorkRole } from "../../domain/ports.ts";
import type { SpeechFacts, TranscriptCut, WorkObserver } from "../../domain/transcript.ts";
import type { LogFields, Logger } from "./logger.ts";

/** What the HTTP app learns about a request while answering it, for its log line. */
export interface RequestFacts {
  /** The caller's key id (never the key itself). */
  keyId?: string;
  videoId?: string;
  /** Length of the prompt as processed, in code points; the text itself is never logged. */
  promptLength?: number;
  cache?: "hit" | "shared" | "miss";
  /**
   * Who generated the answer: this request (`owner`), another on this instance (`local`), another instance (`remote`).
   */
  work?: WorkRole;
  /** How the transcript was made from the audio, when the video has no captions. */
  speech?: SpeechFacts;
  /** Set when the transcript was longer than the cap and only its beginning was read. */
  cut?: TranscriptCut;
  transcriptMs?: number;
  generationMs?: number;
  usage?: AnswerUsage;
  /** The model that wrote a cached answer (a generated one's is in `usage`). */
  model?: string;
  /** The YouTube egress route of the transcript fetch's last try: `direct` or `host:port`, never credentials. */
  youtubeRoute?: string;
  /** Tries of that fetch before its last (blocks met). */
  youtubeRetries?: number;
  /** The InnerTube client (`ANDROID`, `IOS`, ...) that served that try; undefined when none did. */
  youtubeClient?: string;
  /** What each client asked during that try answered, by name (`retired`, `ok`, `blocked`, ...). */
  youtubeClientAnswers?: Readonly<Record<string, string>>;
  /** Requests the answer's writer sent to YouTube itself (the offline engine's second reading). */
  extraYoutubeRequests?: number;
  errorCode?: string;
  /** The id the response carries (`x-request-id`), when the app chose it. */
  requestId?: string;
}

/** Where the HTTP app records facts about the request it is answering. */
export interface RequestNotes {
  note(request: Request, facts: RequestFacts): void;
  /** The request's facts, to fill in place (one lookup for a request's many facts). */
  of(request: Request): RequestFacts;
}

type Handler = (request: Request) => Response | Promise<Response>;

/**
 * One structured log line per request, whatever its outcome (404s and
 * framework errors included), written when the handler has answered.
 *
 * @param options.logger where lines go
 * @param options.now a monotonic clock in milliseconds
 * @param options.observe told of every request the line is written for (metrics): the same status, facts and duration
 * @param options.streamEnded when a response is a stream, when its body ends
 * @returns the notes to give the HTTP app, and `wrap`, which logs around a fetch handler
 */
export function createRequestLog(
  options: {
    logger: Logger;
    now?: () => number;
    observe?: (status: number, facts: RequestFacts, ms: number) => void;
    streamEnded?: (response: Response) => Promise<void> | undefined;
  },
) {
  const now = options.now ?? (() => performance.now());
  const facts = new WeakMap<Request, RequestFacts>();
  const notes: RequestNotes = {
    note(request, more) {
      Object.assign(notes.of(request), more);
    },
    of(request) {
      let known = facts.get(request);
      if (!known) facts.set(request, known = {});
      return known;
    },
  };
  const wrap = (handler: Handler): (request: Request) => Promise<Response> => async (request) => {
    const started = now();
    try {
      const response = await handler(request);
      // A stream is logged once it has ended, with what its answer (or error) noted.
      // (Bun empties a response's headers once it has sent them: they are read now, when the app did not note the id.)
      const ended = options.streamEnded?.(response);
      const requestId = facts.get(request)?.requestId ?? response.headers.get("x-request-id");
      if (ended) void ended.then(() => write(request, response.status, requestId, now() - started));
      else write(request, response.status, requestId, now() - started);
      return response;
    } catch (error) {
      write(request, 500, null, now() - started);
      throw error;
    }
  };
  const write = (request: Request, status: number, requestId: string | null, ms: number): void => {
    const known = facts.get(request) ?? {};
    options.observe?.(status, known, ms);
    const fields = requestFields(request, status, requestId, ms, known);
    if (status >= 500) options.logger.error("request", fields);
    else options.logger.info("request", fields);
  };
  return { notes, wrap };
}

/**
 * The observer of the work a request runs: what the adapters report lands on its log line (the last try's route and
 * clients stay).
 */
export function observeWork(facts: RequestFacts): WorkObserver {
  return {
    route(route, retries) {
      facts.youtubeRoute = route;
      facts.youtubeRetries = retries;
    },
    clients(served, answers) {
      facts.youtubeClient = served;
      facts.youtubeClientAnswers = answers;
    },
    writerRequests(count) {
      facts.extraYoutubeRequests = count;
    },
  };
}

/** The log line's fields; absent facts are left out rather than logged as null. */
export function requestFields(
  request: Request,
  status: number,
  requestId: string | null,
  ms: number,
  facts: RequestFacts,
): LogFields {
  // Built up field by field: deleting absent ones afterwards would slow every later use of the object.
  const fields: LogFields = {};
  if (requestId !== null) fields.request_id = requestId;
  fields.method = request.method;
  fields.path = pathOf(request.url);
  fields.status = status;
  fields.duration_ms = round(ms);
  if (facts.keyId !== undefined) fields.key_id = facts.keyId;
  if (facts.videoId !== undefined) fields.video_id = facts.videoId;
  if (facts.promptLength !== undefined) fields.prompt_length = facts.promptLength;
  if (facts.cache !== undefined) fields.cache = facts.cache;
  if (facts.work !== undefined) fields.work = facts.work;
  if (facts.transcriptMs !== undefined) fields.transcript_ms = round(facts.transcriptMs);
  if (facts.generationMs !== undefined) fields.generation_ms = round(facts.generationMs);
  if (facts.transcriptMs !== undefined) fields.transcript_source = facts.speech ? "speech" : "captions";
  if (facts.cut !== undefined) fields.transcript_cut_at = Math.floor(facts.cut.keptUntilSeconds);
  if (facts.speech !== undefined) {
    fields.audio_seconds = facts.speech.audioSeconds;
    fields.stt_uploads = facts.speech.uploads;
    fields.stt_ms = round(facts.speech.sttMs);
  }
  if (facts.usage !== undefined) {
    fields.llm_calls = facts.usage.calls;
    fields.input_tokens = facts.usage.inputTokens;
    fields.output_tokens = facts.usage.outputTokens;
    if (facts.usage.intent !== undefined) fields.intent = facts.usage.intent;
    if (facts.usage.plan !== undefined) fields.plan = facts.usage.plan;
    if (facts.usage.coverage !== undefined) fields.coverage = Math.round(facts.usage.coverage * 1000) / 1000;
    if (facts.usage.budgetWaitMs !== undefined) fields.budget_wait_ms = round(facts.usage.budgetWaitMs);
  }
  const model = facts.usage?.model ?? facts.model;
  if (model !== undefined) fields.model = model;
  if (facts.extraYoutubeRequests !== undefined) fields.extra_youtube_requests = facts.extraYoutubeRequests;
  if (facts.youtubeRoute !== undefined) fields.youtube_route = facts.youtubeRoute;
  if (facts.youtubeRetries !== undefined) fields.youtube_retries = facts.youtubeRetries;
  if (facts.youtubeClient !== undefined) fields.youtube_client = facts.youtubeClient;
  const answers = facts.youtubeClientAnswers && clientAnswers(facts.youtubeClientAnswers);
  if (answers) fields.youtube_clients = answers;
  if (facts.errorCode !== undefined) fields.error_code = facts.errorCode;
  return fields;
}

/** `ANDROID=retired,IOS=ok`: one string, the same in JSON and pretty lines. */
function clientAnswers(answers: Readonly<Record<string, string>>): string {
  return Object.entries(answers).map(([client, answer]) => `${client}=${answer}`).join(",");
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
