/** @module The chat use case: answers a request about a video with caching, sharing and deadlines. */
import { AdmittedListener } from "./usage/admitted-listener.ts";
import type { ChatRequest, Language, OutputFormat } from "./chat-request.ts";
import { createLocalFlight } from "./coalesce.ts";
import { describeDuration, videoSeconds } from "./duration.ts";
import { deadline, withDeadline } from "./deadline.ts";
import { linkSignals } from "./linked-signal.ts";
import { type AnswerListener, type Generation, Generations } from "./generation.ts";
import type {
  Answer,
  AnswerUsage,
  AnswerWriter,
  Cache,
  CacheLookup,
  FlightEvents,
  SharedFlight,
  SharedResult,
  TranscriptSource,
  WorkGate,
  WorkRole,
} from "./ports.ts";
import { readIntent } from "./reading/intent.ts";
import {
  heardNothing,
  lastCueEnd,
  nothingHeard,
  type SpeechFacts,
  textCharacters,
  type Transcript,
  type TranscriptCut,
  type WorkObserver,
} from "./transcript.ts";
import { Account, type Charging, type Spent } from "./usage/account.ts";
import { admitUpstream, speechCharges, withOwnRefusals } from "./usage/upstream-work.ts";

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
  /**
   * The video's length in seconds (YouTube's metadata, else the transcript's last cue end); absent when unknown.
   * `video_duration` words it, and the caller is charged its minutes, or its text's if more (`characters`).
   */
  videoSeconds?: number;
  /**
   * Characters of the transcript read (after the cap): a caller is charged the larger of the video's minutes and these
   * in `CHARACTERS_PER_MINUTE` (see `chargedMinutes`). Absent in answers cached before it was kept: charged their
   * minutes alone.
   */
  characters?: number;
  transcriptLanguage: string;
  usage?: AnswerUsage;
  timings: { transcriptMs: number; generationMs: number };
  /** Set when the transcript was made from the video's audio (it has no captions). */
  speech?: SpeechFacts;
  /** Set when the transcript was longer than the cap: only its beginning was read. */
  cut?: TranscriptCut;
}

/** How a request was served: its response, the answer behind it, and who made that answer. */
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
  /** The chat calls this with how it served each answer-cache lookup, failed generations included (metrics). */
  onLookup?: (result: CacheLookup) => void;
}

/** How one caller waits for its answer, and how it is charged ({@link Charging}). */
export interface AnswerOptions extends Charging {
  /** The caller's own: once it aborts (the caller went away), the work is cancelled unless another caller shares it. */
  signal?: AbortSignal;
  /** Follows the answer as it is written (a streamed request): the events so far at once, then each as it comes. */
  listener?: AnswerListener;
  /** The caller's time limit; `requestTimeoutMs` by default. A generation it starts gets the same limit. */
  timeoutMs?: number;
  /** Hears what the adapters do upstream for the work this caller runs (its log line); joined work reports nothing. */
  observer?: WorkObserver;
  /** Whose work a generation this caller runs is (its API key's id), for its share of the bound on work in flight. */
  holder?: string;
  /** The answer cache as the caller's admission read it (to hold a cached answer's minutes with the request). */
  lookedUp?: { answer?: GeneratedAnswer };
}

/** The use case: answers one chat request about a video. */
export interface ChatService {
  /** @throws {AppError} for every failure the caller is told about */
  answer(request: ChatRequest, options?: AnswerOptions): Promise<ChatOutcome>;
  /** The request's answer if cached (read once: pass it on as `AnswerOptions.lookedUp`). */
  cached(request: ChatRequest): Promise<GeneratedAnswer | undefined>;
}

/** One caller asking: its request, how it waits, and its account (kept across its tries). */
interface Asking {
  request: ChatRequest;
  options: AnswerOptions;
  account: Account;
}

/** A generation's work as the caller that runs it started it: whoever joins it shares it as it is. */
interface Work {
  /** The answer's key (see `ChatRequest.answerKey`). */
  key: string;
  request: ChatRequest;
  generation: Generation;
  /** The running caller's time limit. */
  timeoutMs: number;
  /** The running caller follows the answer as it is written: the model is asked to stream. */
  streamed: boolean;
  observer?: WorkObserver;
  /** The running caller's account: admitted to the video's minutes once they are known, told what the work spent. */
  account: Account;
  /** The running caller's key id (see `AnswerOptions.holder`). */
  holder?: string;
}

/** Where the work must stop: its signal aborts at its time limit or once no caller waits; its deadline in epoch ms. */
interface Bounds {
  signal: AbortSignal;
  deadline: number;
}

/** What every step of the use case reads: its ports, and the generations in flight in this instance. */
interface Chat {
  deps: ChatServiceDeps;
  flights: SharedFlight;
  now: () => number;
  generations: Generations;
}

/**
 * The use case wired to its ports. A caller's answer is one try at a time, in named steps, each a function below:
 *
 * 1. {@link fromCache}: a cached answer, once the caller is admitted to its minutes;
 * 2. {@link joinOrStart}: else the generation of equal requests in flight, here or on another instance, is joined
 *    (a caller under a quota follows it only once admitted), or started;
 * 3. {@link generate}, by the caller that starts it: within the bound on work in flight and the time limit,
 *    {@link fetchTranscript} → {@link admitUpstream} (the running caller admitted to the video's minutes, then its
 *    joiners told them) → {@link writeAnswer} → {@link recordAnswer} (what it spent, timings), then cached;
 * 4. {@link handOver}: the caller is admitted to the video's minutes before its answer is handed over.
 *
 * Work shared with a caller whose quota refused it failed for that caller only: this one tries again as its own.
 *
 * @returns the use case
 */
export function createChatService(deps: ChatServiceDeps): ChatService {
  const chat: Chat = {
    deps,
    flights: deps.flights ?? createLocalFlight(),
    now: deps.now ?? (() => performance.now()),
    generations: new Generations(),
  };
  return {
    answer(request, options = {}) {
      const asking: Asking = { request, options, account: new Account(options) };
      return withOwnRefusals(asking.account, async () => (await fromCache(chat, asking)) ?? joinOrStart(chat, asking));
    },
    cached: (request) => deps.answers.get(request.answerKey),
  };
}

/** Step 1: the cached answer, the caller admitted to its minutes; undefined when none is cached. */
async function fromCache(chat: Chat, { request, options, account }: Asking): Promise<ChatOutcome | undefined> {
  const cached = options.lookedUp ? options.lookedUp.answer : await chat.deps.answers.get(request.answerKey);
  if (!cached) return undefined;
  chat.deps.onLookup?.("hit");
  if (account.checked) await account.admit(cached.videoSeconds, cached.characters);
  return outcome(request, cached, "hit");
}

/**
 * Step 2: joins the generation of the request's answer in flight (here, or on another instance through the flights),
 * else runs it; the caller waits until its time limit or until it leaves.
 */
async function joinOrStart(chat: Chat, asking: Asking): Promise<ChatOutcome> {
  const { request, options, account } = asking;
  const key = request.answerKey;
  const timeoutMs = options.timeoutMs ?? chat.deps.requestTimeoutMs;
  const waiting = deadline(timeoutMs, options.signal);
  const generation = chat.generations.enter(key);
  // A caller under a quota follows the work only once admitted to the video's minutes; a refusal stops its wait.
  const refused = new AbortController();
  const stops = linkSignals([waiting.signal, refused.signal]);
  const follower = options.listener &&
    new AdmittedListener(account, options.listener, (error) => refused.abort(error));
  const leave = generation.join(follower?.listen);
  const streamed = options.listener !== undefined;
  const { observer, holder } = options;
  const work: Work = { key, request, generation, timeoutMs, streamed, observer, account, holder };
  try {
    const shared = await chat.flights.run(`answer:${key}`, () => generateAndCache(chat, work), {
      signal: stops.signal,
      events: flightEvents(generation, streamed),
    });
    return await handOver(chat, asking, shared, follower);
  } catch (error) {
    // A lookup whose generation failed is counted too, as a miss.
    chat.deps.onLookup?.("miss");
    throw error;
  } finally {
    stops.dispose();
    waiting.clear();
    follower?.close();
    leave();
    // Work that runs elsewhere (another instance) never settles it here.
    if (generation.idle) chat.generations.forget(key, generation);
  }
}

/** Generates and caches; looks again first, as another instance may have just finished. */
async function generateAndCache(chat: Chat, work: Work): Promise<GeneratedAnswer> {
  try {
    const finished = await chat.deps.answers.get(work.key);
    if (finished) return finished;
    const fresh = await generate(chat, work);
    await chat.deps.answers.set(work.key, fresh, chat.deps.answerTtlMs);
    return fresh;
  } finally {
    work.generation.settle();
    chat.generations.forget(work.key, work.generation);
  }
}

/**
 * Step 3: the generation, within the bound on work in flight; it stops at its time limit, or as soon as none of its
 * callers waits any more.
 */
async function generate(chat: Chat, work: Work): Promise<GeneratedAnswer> {
  const linked = linkSignals([work.generation.signal], { ms: work.timeoutMs });
  const bounds: Bounds = { signal: linked.signal, deadline: Date.now() + work.timeoutMs };
  try {
    return await withDeadline(
      chat.deps.gate.run(() => fetchAdmitWrite(chat, work, bounds), work.holder),
      bounds.signal,
      work.timeoutMs,
    );
  } finally {
    linked.dispose();
  }
}

/**
 * The transcript, the caller admitted to the video's minutes, then the answer. The callers sharing the work are
 * told the video's length once the running caller is admitted: a request that has ended refuses first.
 */
async function fetchAdmitWrite(chat: Chat, work: Work, bounds: Bounds): Promise<GeneratedAnswer> {
  const started = chat.now();
  const transcript = await fetchTranscript(chat.deps.transcripts, work, bounds);
  const fetched = chat.now();
  if (heardNothing(transcript)) {
    // Its audio was transcribed for this caller (when it was: not from the cache) and holds no speech: charged.
    work.account.chargeFailure();
    throw nothingHeard(work.request.videoId);
  }
  const seconds = videoSeconds(transcript.durationSeconds, lastCueEnd(transcript.cues));
  // A caller is charged the video's minutes, or its text's when denser than speech (the model reads the text).
  const characters = textCharacters(transcript.cues);
  await admitUpstream(work.account, seconds, characters);
  work.generation.known(seconds, characters);
  const answer = await writeAnswer(chat.deps.writer, work, transcript, bounds);
  return recordAnswer(work, { transcript, seconds, characters, answer }, {
    transcriptMs: fetched - started,
    generationMs: chat.now() - fetched,
  });
}

/** What was generated, as it is shared and cached; the running caller is told what the answer's calls spent. */
function recordAnswer(
  work: Work,
  { transcript, seconds, characters, answer }: {
    transcript: Transcript;
    seconds: number | undefined;
    characters: number;
    answer: Answer;
  },
  timings: GeneratedAnswer["timings"],
): GeneratedAnswer {
  work.account.spend(tokensOf(answer));
  return {
    output: answer.text,
    ...(seconds !== undefined ? { videoSeconds: seconds } : {}),
    characters,
    transcriptLanguage: transcript.language,
    usage: answer.usage,
    timings,
    ...(transcript.speech ? { speech: transcript.speech } : {}),
    ...(transcript.cut ? { cut: transcript.cut } : {}),
  };
}

/**
 * Step 4: the caller, admitted to the video's minutes, gets the answer; the events it was held back from while
 * waiting for its admission go out first.
 */
async function handOver(
  chat: Chat,
  { request, account }: Asking,
  { value, role }: SharedResult<GeneratedAnswer>,
  follower?: AdmittedListener,
): Promise<ChatOutcome> {
  if (account.checked) await account.admit(value.videoSeconds, value.characters);
  follower?.flush();
  const cache = role === "owner" ? "miss" : "shared";
  chat.deps.onLookup?.(cache);
  const spent = role === "owner" ? account.spent : undefined;
  return { ...outcome(request, value, cache), work: role, ...(spent && { spent }) };
}

/**
 * How the flights relay a generation's events between instances. Another instance's events are followed only for a
 * streamed caller (the first caller decides, as for the model's stream).
 */
function flightEvents(generation: Generation, streamed: boolean): FlightEvents {
  return { publish: generation.relay.publish, listen: streamed ? generation.relay.listen : undefined };
}

/**
 * The request's transcript (a translation into its language when no track is in it), its progress told to the
 * generation's callers.
 */
function fetchTranscript(source: TranscriptSource, work: Work, bounds: Bounds): Promise<Transcript> {
  const { request, generation, account } = work;
  generation.events.progress({ stage: "transcript" });
  return source.fetch(request.videoId, {
    languages: [request.language],
    translate: true,
    signal: bounds.signal,
    deadline: bounds.deadline,
    observer: work.observer,
    // Speech-to-text is upstream spend: the chat holds the video's minutes before the reader fetches any audio.
    ...speechCharges(account, (known) => generation.known(known)),
    onTranscribing: (done, total) => generation.events.progress({ stage: "transcribing", done, total }),
  });
}

/** The answer from the transcript; what the writer did not stream of it goes to the callers at its end. */
async function writeAnswer(writer: AnswerWriter, work: Work, transcript: Transcript, bounds: Bounds): Promise<Answer> {
  const { request, generation } = work;
  const answer = await writer.write({
    transcript,
    prompt: request.prompt,
    // Read with the transcript: a question about what the video says all along is about the whole video.
    intent: readIntent(request.prompt, transcript.cues),
    language: request.language,
    outputFormat: request.outputFormat,
    signal: bounds.signal,
    deadline: bounds.deadline,
    // The model is asked to stream only for a streamed caller; joiners of another caller's work get the text at its
    // end.
    events: work.streamed ? generation.events : undefined,
    observer: work.observer,
    holder: work.holder,
  });
  const sent = generation.streamed();
  if (answer.text.startsWith(sent)) generation.events.delta(answer.text.slice(sent.length));
  return answer;
}

/** The answer's tokens, as the model reported them. */
function tokensOf(answer: Answer): Partial<Spent> {
  return { inputTokens: answer.usage?.inputTokens ?? 0, outputTokens: answer.usage?.outputTokens ?? 0 };
}

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
      video_duration: describeDuration(answer.videoSeconds),
    },
  };
}
