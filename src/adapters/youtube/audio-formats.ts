/** @module Reads the audio-only formats a player response offers, for speech-to-text. */
// deno-lint-ignore-file no-explicit-any -- reads JSON whose shape is checked field by field where it is used

/** One audio-only format of `streamingData.adaptiveFormats`. */
export interface AudioFormat {
  itag: number;
  /** Direct URL; undefined when YouTube sent only a `signatureCipher` (needs its JS player) or nothing. */
  url?: string;
  /** e.g. `audio/webm; codecs="opus"`. */
  mimeType: string;
  /** Bits per second. */
  bitrate: number;
  /** Bytes of the whole file, when stated. */
  contentLength?: number;
  /** Length in seconds, when stated. */
  durationSeconds?: number;
}

/**
 * @param streamingData a player response's `streamingData` (anything)
 * @returns its audio-only adaptive formats, lowest bitrate first; empty when it lists none
 */
export function readAudioFormats(streamingData: unknown): AudioFormat[] {
  const formats = (streamingData as { adaptiveFormats?: unknown } | null | undefined)?.adaptiveFormats;
  if (!Array.isArray(formats)) return [];
  return formats.flatMap((format: any): AudioFormat[] => {
    const mimeType = typeof format?.mimeType === "string" ? format.mimeType : "";
    if (!/^audio\/(webm|mp4)\b/.test(mimeType) || !Number.isInteger(format.itag)) return [];
    const bitrate = positive(format.bitrate) ?? positive(format.averageBitrate) ?? Number.MAX_SAFE_INTEGER;
    const ms = positive(format.approxDurationMs);
    return [{
      itag: format.itag,
      url: typeof format.url === "string" ? format.url : undefined,
      mimeType,
      bitrate,
      contentLength: positive(format.contentLength),
      durationSeconds: ms === undefined ? undefined : ms / 1000,
    }];
  }).sort((a, b) => a.bitrate - b.bitrate);
}

/** @returns the lowest-bitrate audio-only format with a direct URL, if any */
export function lowestDirectAudio(formats: readonly AudioFormat[]): AudioFormat | undefined {
  return formats.find((format) => format.url !== undefined);
}

function positive(value: unknown): number | undefined {
  const number = Number(value);
  return typeof value !== "boolean" && value !== null && value !== "" && Number.isFinite(number) && number > 0
    ? number
    : undefined;
}
