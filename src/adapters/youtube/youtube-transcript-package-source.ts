/** @module The second strategy: transcripts through the `youtube-transcript` package, with a watching fetch hook. */
// deno-lint-ignore-file no-explicit-any -- reads JSON whose shape is checked field by field where it is used
import {
  fetchTranscript,
  type TranscriptResponse,
  YoutubeTranscriptNotAvailableLanguageError,
  YoutubeTranscriptTooManyRequestError,
} from "youtube-transcript";
import { AppError } from "../../domain/errors.ts";
import type { TranscriptSource } from "../../domain/ports.ts";
import type { Cue, Transcript, TranscriptQuery } from "../../domain/transcript.ts";
import { type InnertubeClient, innertubeClient } from "./innertube-clients.ts";
import { presentedAs } from "./package-identity.ts";
import { type CaptionFormat, captionFormat, cleanText } from "./timedtext.ts";
import { createYoutubeTransport, type TransportOptions, type YoutubeTransport } from "./transport.ts";

/** What the fetch hook saw pass by: the package itself reports none of it. */
interface Observed {
  /** Format of the last caption body; `broken` when it was not a whole document. */
  format?: CaptionFormat | "broken";
  lengthSeconds?: number;
  title?: string;
  tracks: { languageCode?: string; kind?: string }[];
  /** Language of the video's default track, from the player response. */
  defaultLanguage?: string;
  failure?: "timeout" | "blocked";
}

/**
 * The second strategy: the `youtube-transcript` package, every request of
 * which goes through the fetch hook, so it honours `YOUTUBE_BASE_URL`, the
 * proxy and the time limit. Its output is normalised: srv3 milliseconds
 * become seconds, entities and markup are decoded, empty cues are dropped,
 * and an empty result is an error, never a transcript. Its requests present the service's own client identity
 * (package-identity.ts), never the package's.
 *
 * @param options origin, time limit and fetch, as for the primary path, and the identity to present (the client
 *   table's current ANDROID by default)
 * @returns the transcript source
 */
export function createYoutubeTranscriptPackageSource(
  options: TransportOptions & { client?: InnertubeClient },
): TranscriptSource {
  const transport = createYoutubeTransport(options);
  const client = options.client ?? innertubeClient("ANDROID");
  return { fetch: (videoId, query) => readWithPackage(transport, videoId, query, client) };
}

/**
 * The same reading through a given transport (one egress route): the
 * package's `fetch` option is the transport's hook, so it never sends by another route.
 *
 * @param client the client identity its player call presents
 */
export async function readWithPackage(
  transport: YoutubeTransport,
  videoId: string,
  query: TranscriptQuery,
  client: InnertubeClient,
): Promise<Transcript> {
  const seen: Observed = { tracks: [] };
  const hook = observing(presentedAs(transport.hook(query.signal), client), seen, query.observer?.request);
  const items = await fetchInOrder(videoId, query.languages, hook, seen);
  if (seen.format === "broken") {
    throw new AppError(
      "upstream_error",
      `YouTube sent a caption track for video ${videoId} the service could not read; try again later`,
    );
  }
  const cues = normalise(items, seen.format);
  if (cues.length === 0) {
    throw new AppError("upstream_error", `YouTube sent an empty caption track for video ${videoId}; try again later`);
  }
  const language = items[0]?.lang ?? query.languages[0] ?? "und";
  return {
    videoId,
    language,
    isGenerated: seen.tracks.find((t) => t.languageCode === language)?.kind === "asr",
    isTranslated: false,
    durationSeconds: seen.lengthSeconds,
    title: seen.title,
    videoLanguage: seen.tracks.find((t) => t.kind === "asr")?.languageCode ?? seen.defaultLanguage,
    cues,
  } satisfies Transcript;
}

/**
 * Asks for each wanted language in turn, then the video's default track's
 * (learnt from the first attempt), then whatever the package picks.
 */
async function fetchInOrder(
  videoId: string,
  languages: readonly string[],
  hook: typeof fetch,
  seen: Observed,
): Promise<TranscriptResponse[]> {
  const tried = new Set<string | undefined>();
  // Ends: the last candidate is `undefined`, after which every outcome returns or throws.
  for (;;) {
    const lang = [...languages, seen.defaultLanguage].find((code) => code !== undefined && !tried.has(code));
    tried.add(lang);
    try {
      return await fetchTranscript(videoId, { lang, fetch: hook });
    } catch (error) {
      if (error instanceof YoutubeTranscriptNotAvailableLanguageError && lang !== undefined) continue;
      throw failure(error, seen);
    }
  }
}

/** The package reports blocked, unavailable and disabled alike, so only what the hook saw is trusted. */
function failure(error: unknown, seen: Observed): AppError {
  if (seen.failure === "timeout") {
    return new AppError("upstream_timeout", "YouTube did not answer in time; try again later", { cause: error });
  }
  if (seen.failure === "blocked" || error instanceof YoutubeTranscriptTooManyRequestError) {
    return new AppError(
      "upstream_blocked",
      "YouTube is refusing this server (rate limit or reCAPTCHA); try again later",
      { cause: error, retryAfterSeconds: 60 },
    );
  }
  return new AppError("upstream_error", "YouTube's transcript could not be read; try again later", { cause: error });
}

/**
 * @param items the package's output
 * @param format the caption format the hook saw (the package does not say which units it returned)
 * @returns cues in seconds with plain text, empty ones dropped
 */
export function normalise(items: readonly TranscriptResponse[], format: Observed["format"]): Cue[] {
  if (format === "broken" || format === undefined) return [];
  const perSecond = format === "srv3" ? 1000 : 1;
  const cues: Cue[] = [];
  for (const item of items) {
    const text = cleanText(String(item.text ?? ""));
    const start = Number(item.offset) / perSecond;
    const duration = Number(item.duration) / perSecond;
    if (text === "" || !Number.isFinite(start) || start < 0) continue;
    cues.push({ start, duration: Number.isFinite(duration) && duration > 0 ? duration : 0, text });
  }
  return cues;
}

/** Wraps the hook to note what YouTube sent: caption format, length, tracks, and why a request failed. */
function observing(hook: typeof fetch, seen: Observed, count?: () => void): typeof fetch {
  const watched = async (input: string | URL | Request, init?: RequestInit) => {
    count?.();
    let response: Response;
    try {
      response = await hook(input, init);
    } catch (error) {
      if (error instanceof DOMException && (error.name === "TimeoutError" || error.name === "AbortError")) {
        seen.failure = "timeout";
      }
      throw error;
    }
    if (response.status === 429) seen.failure = "blocked";
    const path = new URL(input instanceof Request ? input.url : String(input)).pathname;
    if (path === "/api/timedtext") {
      const body = await response.clone().text();
      seen.format = captionFormat(body) ?? "broken";
    } else if (path === "/youtubei/v1/player" && response.ok) {
      notePlayer(await response.clone().json().catch(() => undefined), seen);
    }
    return response;
  };
  return watched as typeof fetch;
}

function notePlayer(json: any, seen: Observed): void {
  const length = Number(json?.videoDetails?.lengthSeconds);
  if (Number.isFinite(length) && length > 0) seen.lengthSeconds = length;
  if (typeof json?.videoDetails?.title === "string") seen.title = json.videoDetails.title;
  const tracks = json?.captions?.playerCaptionsTracklistRenderer?.captionTracks;
  if (!Array.isArray(tracks)) return;
  seen.tracks = tracks;
  const index = json?.captions?.playerCaptionsTracklistRenderer?.audioTracks?.[0]?.defaultCaptionTrackIndex;
  const code = Number.isInteger(index) ? tracks[index]?.languageCode : undefined;
  if (typeof code === "string") seen.defaultLanguage = code;
}
