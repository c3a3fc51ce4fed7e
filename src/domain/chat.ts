/** @module The chat use case: answers a request about a video with caching, sharing and deadlines. */
import type { ChatRequest, Language, OutputFormat } from "./chat-request.ts";
import { createLocalFlight } from "./coalesce.ts";
import { describeDuration } from "./duration.ts";
import { deadline, withDeadline } from "./deadline.ts";
import { linkSignals } from "./linked-signal.ts";
import { type AnswerListener, type Generation, Generations } from "./generation.ts";
import type {
  AnswerUsage,
  AnswerWriter,
  Cache,
  CacheLookup,
  SharedFlight,
  TranscriptSource,
  WorkGate,
  WorkRole,
} from "./ports.ts";
import { readIntent } from "./reading/intent.ts";
import { lastCueEnd, type SpeechFacts, type TranscriptQuery } from "./transcript.ts";
import { Account, type Spent, TRIES_AFTER_FOREIGN_REFUSAL } from "./usage/account.ts";

/** The response body of `POST /chat`: the request's fields as processed, the answer and the video's length. */
export interface ChatResponse {
  url: string;
  model: string;
  prompt: string;
  language: Language;
  output_format: OutputFormat;
  output: string;
  video_duration: string;
}

/** What was generated for a request; shared by equal requests and cached. */
export interface GeneratedAnswer {
  output: string;
  videoDuration: string;
  transcriptLanguage: string;
  usage?: AnswerUsage;
  timings: { transcriptMs: number; generationMs: number };
  /** Set when the transcript was made from the video's audio (it has no captions). */
  speech?: SpeechFacts;
}

/** How a request was served, for logs and Server-Timing. */
export interface ChatOutcome {
  response: ChatResponse;
  answer: GeneratedAnswer;
  /** `hit` from the response cache, `shared` with an equal request in flight, `miss` generated. */
  cache: CacheLookup;
  /** Who generated it, when not a cache hit: this request, another here, or another instance. */
  work?: WorkRole;
  /** What this request's own work spent (set when it did the work). */
  spent?: Spent;
}

export interface ChatServiceDeps {
  transcripts: TranscriptSource;
  writer: AnswerWriter;
  answers: Cache<GeneratedAnswer>;
  gate: WorkGate;
  /** Where identical generations in flight are shared; in this process only by default. */
  flights?: SharedFlight;
  answerTtlMs: number;
  /** Bound on the whole request's work. */
  requestTimeoutMs: number;
  now?: () => number;
  /** Told how each answer-cache lookup was served, failed generations included (metrics). */
  onLookup?: (result: CacheLookup) => void;
}

/** How one caller waits for its answer. */
export interface AnswerOptions {
  /** The caller's own: once it aborts (the caller went away), the work is cancelled unless another caller shares it. */
  signal?: AbortSignal;
  /** Follows the answer as it is written (a streamed request): the events so far at once, then each as it comes. */
  listener?: AnswerListener;
  /** The caller's time limit; `requestTimeoutMs` by default. A generation it starts gets the same limit. */
  timeoutMs?: number;
  /**
   * Told the YouTube egress route of each try of a transcript fetch this caller's work makes, and the tries before it
   * (request log).
   */
  onRoute?: (route: string, retries: number) => void;
  /** Told which YouTube client served each try of that fetch, and what each client answered (request log). */
  onClients?: TranscriptQuery["onClients"];
  /**
   * The caller's quota check for the video's minutes (whole, at least 1), awaited before work is spent on the
   * answer: before the model is asked (once the transcript gives the length), or before a cached or shared
   * answer is handed over. It throws the caller's refusal.
   */
  admit?: (minutes: number) => Promise<void>;
}

/** One caller's hooks into the work it may do for others too: what it is told of its fetch, and its account. */
interface Caller {
  onRoute?: AnswerOptions["onRoute"];
  onClients?: AnswerOptions["onClients"];
  account: Account;
}

/** The use case: answers one chat request about a video. */
export interface ChatService {
  /** @throws {AppError} for every failure the caller is told about */
  answer(request: ChatRequest, options?: AnswerOptions): Promise<ChatOutcome>;
}

/** @returns the use case wired to its ports */
export function createChatService(deps: ChatServiceDeps): ChatService {
  const flights = deps.flights ?? createLocalFlight();
  const now = deps.now ?? (() => performance.now());
  const generations = new Generations();

  /** A generation stops at its time limit, or as soon as none of its callers waits any more. */
  async function generate(
    request: ChatRequest,
    generation: Generation,
    timeoutMs: number,
    streamed: boolean,
    caller: Caller,
  ): Promise<GeneratedAnswer> {
    const linked = linkSignals([generation.signal], { ms: timeoutMs });
    const { signal } = linked;
    const deadline = Date.now() + timeoutMs;
    const work = deps.gate.run(() => fetchAndWrite(request, signal, deadline, generation, streamed, caller));
    try {
      return await withDeadline(work, signal, timeoutMs);
    } finally {
      linked.dispose();
    }
  }

  async function fetchAndWrite(
    request: ChatRequest,
    signal: AbortSignal,
    deadline: number,
    generation: Generation,
    streamed: boolean,
    caller: Caller,
  ): Promise<GeneratedAnswer> {
    generation.events.progress({ stage: "transcript" });
    const started = now();
    let transcribed = false;
    const transcript = await deps.transcripts.fetch(request.videoId, {
      languages: [request.language],
      translate: true,
      signal,
      deadline,
      onRoute: caller.onRoute,
      onClients: caller.onClients,
      onTranscribing: (done, total) => {
        transcribed = true;
        generation.events.progress({ stage: "transcribing", done, total });
      },
    });
    const fetched = now();
    const videoDuration = describeDuration(transcript.durationSeconds, lastCueEnd(transcript.cues));
    if (caller.account.checked) await caller.account.admit(videoDuration);
    const answer = await deps.writer.write({
      transcript,
      prompt: request.prompt,
      // Read with the transcript: a question about what the video says all along is about the whole video.
      intent: readIntent(request.prompt, transcript.cues),
      language: request.language,
      outputFormat: request.outputFormat,
      signal,
      deadline,
      // The model is asked to stream only for a streamed caller; joiners of another caller's work get the text at its
      // end.
      events: streamed ? generation.events : undefined,
    });
    const sent = generation.streamed();
    if (answer.text.startsWith(sent)) generation.events.delta(answer.text.slice(sent.length));
    caller.account.spent = {
      inputTokens: answer.usage?.inputTokens ?? 0,
      outputTokens: answer.usage?.outputTokens ?? 0,
      audioSeconds: transcribed ? transcript.speech?.audioSeconds ?? 0 : 0,
    };
    return {
      output: answer.text,
      videoDuration,
      transcriptLanguage: transcript.language,
      usage: answer.usage,
      timings: { transcriptMs: fetched - started, generationMs: now() - fetched },
      ...(transcript.speech ? { speech: transcript.speech } : {}),
    };
  }

  /** Generates and caches; looks again first, as another instance may have just finished. */
  async function generateOnce(
    key: string,
    request: ChatRequest,
    generation: Generation,
    timeoutMs: number,
    streamed: boolean,
    caller: Caller,
  ): Promise<GeneratedAnswer> {
    try {
      const finished = await deps.answers.get(key);
      if (finished) return finished;
      const fresh = await generate(request, generation, timeoutMs, streamed, caller);
      await deps.answers.set(key, fresh, deps.answerTtlMs);
      return fresh;
    } finally {
      generation.settle();
      generations.forget(key, generation);
    }
  }

  // One try at the answer; the caller's account is admitted to its minutes before the answer is handed over.
  const once = {
    async answer(request: ChatRequest, options: AnswerOptions, account: Account): Promise<ChatOutcome> {
      const key = answerKey(request);
      const cached = await deps.answers.get(key);
      if (cached) {
        deps.onLookup?.("hit");
        if (account.checked) await account.admit(cached.videoDuration);
        return outcome(request, cached, "hit");
      }
      const timeoutMs = options.timeoutMs ?? deps.requestTimeoutMs;
      const caller = deadline(timeoutMs, options.signal);
      const generation = generations.enter(key);
      const leave = generation.join(options.listener);
      try {
        const own = { onRoute: options.onRoute, onClients: options.onClients, account };
        const work = () => generateOnce(key, request, generation, timeoutMs, options.listener !== undefined, own);
        // Another instance's events are followed only for a streamed caller (the first one decides, as for the model's
        // stream).
        const events = {
          publish: generation.relay.publish,
          listen: options.listener ? generation.relay.listen : undefined,
        };
        const { value, role } = await flights.run(`answer:${key}`, work, { signal: caller.signal, events });
        if (account.checked) await account.admit(value.videoDuration);
        deps.onLookup?.(role === "owner" ? "miss" : "shared");
        const spent = role === "owner" ? account.spent : undefined;
        return {
          ...outcome(request, value, role === "owner" ? "miss" : "shared"),
          work: role,
          ...(spent && { spent }),
        };
      } catch (error) {
        // A lookup whose generation failed is counted too, as a miss.
        deps.onLookup?.("miss");
        throw error;
      } finally {
        caller.clear();
        leave();
        // Work that runs elsewhere (another instance) never settles it here.
        if (generation.idle) generations.forget(key, generation);
      }
    },
  };

  return {
    answer(request, options = {}) {
      const account = new Account(options.admit);
      // Work shared with a caller whose quota refused it failed for that caller only: this one tries again.
      const attempt = (tries: number): Promise<ChatOutcome> =>
        once.answer(request, options, account).catch((error) => {
          if (tries >= TRIES_AFTER_FOREIGN_REFUSAL || !account.foreign(error)) throw error;
          return attempt(tries + 1);
        });
      return attempt(1);
    },
  };
}

/** Requests that must get the same answer share this key. */
export function answerKey(request: ChatRequest): string {
  let key = keys.get(request);
  if (key === undefined) {
    const ask = request.isSummary ? "summary" : request.prompt;
    key = JSON.stringify([request.videoId, request.language, request.outputFormat, ask]);
    keys.set(request, key);
  }
  return key;
}

// A request object asked again (the HTTP app hands out the same one for the same body) keeps its key.
const keys = new WeakMap<ChatRequest, string>();

function outcome(request: ChatRequest, answer: GeneratedAnswer, cache: ChatOutcome["cache"]): ChatOutcome {
  return {
    cache,
    answer,
    response: {
      url: request.url,
      model: request.model,
      prompt: request.prompt,
      language: request.language,
      output_format: request.outputFormat,
      output: answer.output,
      video_duration: answer.videoDuration,
    },
  };
}
