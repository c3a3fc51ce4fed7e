/** @module Downloads one audio-only format in ranges, over the transport that made the video's player call. */
import { AppError, isAppError } from "../../domain/errors.ts";
import type { AudioFormat } from "../youtube/audio-formats.ts";
import { onOrigin } from "../youtube/origin.ts";
import { httpStatusOf, type YoutubeTransport } from "../youtube/transport.ts";
import { joinChunks } from "../body-limit.ts";

/**
 * Bytes asked per range request (YouTube throttles a plain GET of a whole format; ranges of ~10 MB are served at full
 * speed).
 */
export const RANGE_BYTES = 10 * 1024 * 1024;

/** The message of every audio that could not be read: the caller learns why there is no transcript. */
export function audioUnreadable(videoId: string, why: string, cause?: unknown): AppError {
  return new AppError(
    "transcript_unavailable",
    `Video ${videoId} has no captions and its audio could not be read (${why}), so there is no transcript to ` +
      `answer from`,
    { cause },
  );
}

/**
 * @returns whether a download failed because YouTube refused the URL with 403, as it does for a client whose audio
 *   needs a proof-of-origin token: another client's URL may be served
 */
export function isAudioRefused(error: unknown): boolean {
  return isAppError(error, "transcript_unavailable") && httpStatusOf(error) === 403;
}

/**
 * @param transport the video's transport (its route: googlevideo URLs are bound to the address that asked)
 * @param format the format to fetch; its URL's origin is replaced by the transport's
 * @param options.maxBytes most bytes of the whole file
 * @param options.rangeBytes bytes per request
 * @returns the whole file
 * @throws {AppError} transcript_unavailable when YouTube refuses the audio (403 and other statuses, a body
 *   over the cap); the transport's upstream_blocked and upstream_timeout as they are
 */
export async function downloadAudio(
  transport: YoutubeTransport,
  videoId: string,
  format: AudioFormat,
  options: { maxBytes: number; rangeBytes?: number; signal?: AbortSignal; userAgent?: string },
): Promise<Uint8Array> {
  const url = onOrigin(format.url ?? "", "http://audio.invalid");
  const path = url.pathname + url.search;
  const step = options.rangeBytes ?? RANGE_BYTES;
  const parts: Uint8Array[] = [];
  let total = format.contentLength;
  let at = 0;
  for (;;) {
    if (at >= options.maxBytes) throw audioUnreadable(videoId, `it is larger than ${options.maxBytes} bytes`);
    const asked = Math.min(step, options.maxBytes - at);
    const { body, headers } = await readRange(transport, videoId, path, { start: at, end: at + asked - 1, ...options });
    parts.push(body);
    at += body.byteLength;
    const range = headers.get("content-range");
    total = total ?? rangeTotal(range);
    // No content-range: the server sent the whole file at once; a short range: the file ended.
    if (body.byteLength < asked || range === null || (total !== undefined && at >= total)) break;
  }
  if (at === 0) throw audioUnreadable(videoId, "YouTube sent no audio bytes");
  return joinChunks(parts, at);
}

async function readRange(
  transport: YoutubeTransport,
  videoId: string,
  path: string,
  range: { start: number; end: number; signal?: AbortSignal; userAgent?: string },
) {
  const headers: Record<string, string> = { range: `bytes=${range.start}-${range.end}` };
  // The client that got the URL downloads it: its app's user agent, else a browser's (the transport's).
  if (range.userAgent) headers["user-agent"] = range.userAgent;
  try {
    return await transport.bytes(path, { headers, signal: range.signal }, range.end - range.start + 1);
  } catch (error) {
    // 403 (the URL needs a PoToken, or was bound to another address), 404, a body over the cap: the audio cannot be
    // read.
    if (isAppError(error, "upstream_error")) {
      // The status goes along (not the AppError itself: an AppError's cause is taken for the error to answer with).
      throw audioUnreadable(videoId, error.message.replace(/; try again later$/, ""), error.cause);
    }
    throw error;
  }
}

/** @returns the total of `bytes 0-99/1234`, if stated */
function rangeTotal(header: string | null): number | undefined {
  const total = /\/(\d+)\s*$/.exec(header ?? "")?.[1];
  return total === undefined ? undefined : Number(total);
}
