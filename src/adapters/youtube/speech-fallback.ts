/** @module What the InnerTube source hands over for a video without captions, and the reader it hands it to. */
import type { Transcript, TranscriptQuery } from "../../domain/transcript.ts";
import type { InnertubeClient } from "./innertube-clients.ts";
import type { PlayerInfo } from "./player-response.ts";
import type { YoutubeTransport } from "./transport.ts";

/** What the InnerTube source hands over for a video whose player response lists no caption track. */
export interface SpeechInput {
  /** The transport that made the video's player call: its route is the one its audio URLs are bound to. */
  transport: YoutubeTransport;
  videoId: string;
  info: PlayerInfo;
  /** The client that got `info`. */
  client?: InnertubeClient;
  query: TranscriptQuery;
}

/** Transcribes a caption-less video from its audio (speech-to-text implements it). */
export interface SpeechReader {
  /**
   * @throws {AppError} transcript_unavailable (too long, audio unreadable), overloaded (budget), upstream_*
   */
  read(input: SpeechInput): Promise<Transcript>;
}
