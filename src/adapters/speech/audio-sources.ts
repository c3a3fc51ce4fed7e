/** @module Where a caption-less video's audio may come from: the audio clients' URLs first, the primary's last. */
import { isAppError } from "../../domain/errors.ts";
import { downloadAudio, isAudioRefused } from "./audio-download.ts";
import { type AudioFormat, lowestDirectAudio } from "../youtube/audio-formats.ts";
import { clientAnswer, type ClientHealth } from "../youtube/client-health.ts";
import type { InnertubeClient } from "../youtube/innertube-clients.ts";
import { askPlayer } from "../youtube/player-request.ts";
import type { PlayerInfo } from "../youtube/player-response.ts";
import type { YoutubeTransport } from "../youtube/transport.ts";

/** A direct audio URL and the client that got it (its download goes out with that client's user agent). */
export interface AudioSource {
  format: AudioFormat;
  client?: InnertubeClient;
}

/** What the sources are read from: the video's route, its player answer, and the clients to ask. */
export interface AudioSourceInput {
  transport: YoutubeTransport;
  videoId: string;
  /** The primary client's answer (the one that listed no caption track). */
  info: PlayerInfo;
  /** The client that got `info`, if known. */
  client?: InnertubeClient;
  /** `YOUTUBE_AUDIO_CLIENTS`: clients whose audio URLs need no proof-of-origin token. */
  audioClients: readonly InnertubeClient[];
  health?: ClientHealth;
  signal?: AbortSignal;
}

/**
 * Yields, one at a time and only when asked for the next, the lowest-bitrate direct audio of each audio client (its
 * own player call, on the video's transport), then the primary client's. ANDROID's and IOS's audio URLs need a
 * proof-of-origin token: an audio client's comes first, and a URL YouTube refuses leaves the next one to try.
 *
 * @throws {AppError} upstream_blocked or upstream_timeout of an audio client's player call (the route's matter);
 *   any other refusal of an audio client (retired, unreadable) passes on to the next
 */
export async function* audioSources(input: AudioSourceInput): AsyncGenerator<AudioSource> {
  for (const client of input.audioClients) {
    let answer: PlayerInfo;
    try {
      answer = await askPlayer(input.transport, input.videoId, { client, signal: input.signal });
      input.health?.note(client, "ok");
    } catch (error) {
      input.health?.note(client, clientAnswer(error));
      if (isAppError(error, "upstream_blocked") || isAppError(error, "upstream_timeout")) throw error;
      continue;
    }
    const found = lowestDirectAudio(answer.audioFormats ?? []);
    if (found) yield { format: found, client };
  }
  const own = lowestDirectAudio(input.info.audioFormats ?? []);
  if (own) yield { format: own, client: input.client };
}

/** The sources of one video: the first already read (to size the work), the others still to ask. */
export interface AudioSources {
  first: AudioSource;
  rest: AsyncGenerator<AudioSource>;
}

/**
 * @param sources the first source and the ones after it
 * @param at the video's transport and id, and the download's bounds
 * @returns the first source's audio, or the next one's while YouTube refuses a URL with 403
 * @throws {AppError} the last refusal when every source was refused, or the download's other errors at once
 */
export async function downloadFirst(
  sources: AudioSources,
  at: { transport: YoutubeTransport; videoId: string; maxBytes: number; rangeBytes?: number; signal?: AbortSignal },
): Promise<{ bytes: Uint8Array; format: AudioFormat }> {
  let source = sources.first;
  for (;;) {
    try {
      const bytes = await downloadAudio(at.transport, at.videoId, source.format, {
        ...at,
        userAgent: source.client?.userAgent,
      });
      return { bytes, format: source.format };
    } catch (error) {
      if (!isAudioRefused(error)) throw error;
      const next = await sources.rest.next();
      if (next.done) throw error;
      source = next.value;
    }
  }
}
