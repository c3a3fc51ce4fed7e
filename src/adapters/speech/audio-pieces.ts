/** @module Cuts audio into pieces of at most N bytes, each a valid file of its container (Mediabunny). */
import {
  ALL_FORMATS,
  type AudioCodec,
  BufferSource,
  BufferTarget,
  EncodedAudioPacketSource,
  type EncodedPacket,
  EncodedPacketSink,
  Input,
  Mp4OutputFormat,
  Output,
  WebMOutputFormat,
} from "mediabunny";

/** One piece of the audio, ready to upload. */
export interface AudioPiece {
  bytes: Uint8Array;
  /** The container's file extension (`webm`, `m4a`): the transcription endpoint checks it. */
  extension: "webm" | "m4a";
  /** Where the piece starts in the whole audio, in seconds. */
  startSeconds: number;
  durationSeconds: number;
}

/** The audio's codec could not be read or written again: the caller reports the audio unreadable. */
export class AudioFormatError extends Error {
  override name = "AudioFormatError";
}

/**
 * Re-muxes the audio's packets into consecutive pieces: WebM stays WebM,
 * MP4 (fragmented or not) becomes plain M4A. Each piece starts at time 0,
 * so each decodes on its own; `startSeconds` says where it belongs. A file
 * already under the cap is one piece, its own bytes.
 *
 * @param bytes the whole file (WebM or MP4)
 * @param maxBytes most bytes of one piece, container included
 * @returns the pieces, in order, and the audio's length in seconds
 * @throws {AudioFormatError} when the file is no audio Mediabunny can read
 */
export async function cutAudio(
  bytes: Uint8Array,
  maxBytes: number,
): Promise<{ pieces: AudioPiece[]; durationSeconds: number }> {
  const input = new Input({ source: new BufferSource(bytes), formats: ALL_FORMATS });
  try {
    const track = await input.getPrimaryAudioTrack().catch(() => null);
    const config = track ? await track.getDecoderConfig().catch(() => null) : null;
    if (!track || !track.codec || !config) throw new AudioFormatError("no audio track Mediabunny can read");
    const webm = (await input.getMimeType()).includes("webm");
    const packets: EncodedPacket[] = [];
    for await (const packet of new EncodedPacketSink(track).packets()) packets.push(packet);
    if (packets.length === 0) throw new AudioFormatError("no audio packets");
    const first = packets[0]!.timestamp;
    const last = packets.at(-1)!;
    const durationSeconds = last.timestamp + last.duration - first;
    // A file under the cap is already a valid upload: sent as it came (re-muxing it would only cost time).
    if (bytes.byteLength <= maxBytes) {
      return {
        pieces: [{ bytes, extension: webm ? "webm" : "m4a", startSeconds: 0, durationSeconds }],
        durationSeconds,
      };
    }
    const writer = { codec: track.codec, config, webm, origin: first };
    const pieces: AudioPiece[] = [];
    for (const group of byPayload(packets, maxBytes)) pieces.push(...(await written(group, maxBytes, writer)));
    return { pieces, durationSeconds };
  } catch (error) {
    throw error instanceof AudioFormatError
      ? error
      : new AudioFormatError(error instanceof Error ? error.message : String(error));
  } finally {
    input.dispose();
  }
}

interface Writer {
  codec: AudioCodec;
  config: AudioDecoderConfig;
  webm: boolean;
  /** Timestamp of the whole audio's first packet. */
  origin: number;
}

/** Groups packets whose payload, plus a container allowance per packet, fits one piece. */
function byPayload(packets: readonly EncodedPacket[], maxBytes: number): EncodedPacket[][] {
  const budget = Math.max(1, maxBytes - HEADER_ALLOWANCE);
  const groups: EncodedPacket[][] = [];
  let group: EncodedPacket[] = [];
  let size = 0;
  for (const packet of packets) {
    const cost = packet.byteLength + PACKET_ALLOWANCE;
    if (group.length > 0 && size + cost > budget) {
      groups.push(group);
      group = [];
      size = 0;
    }
    group.push(packet);
    size += cost;
  }
  if (group.length > 0) groups.push(group);
  return groups;
}

/**
 * Bytes of container per packet (a WebM SimpleBlock's header and cluster share; an MP4 sample's table entries),
 * generously.
 */
const PACKET_ALLOWANCE = 24;
/** Bytes of container headers per piece. */
const HEADER_ALLOWANCE = 4_096;

/** Writes a group as one file; a file still over the cap is split in two and written again. */
async function written(group: EncodedPacket[], maxBytes: number, writer: Writer): Promise<AudioPiece[]> {
  const start = group[0]!.timestamp;
  const end = group.at(-1)!.timestamp + group.at(-1)!.duration;
  const output = new Output({
    format: writer.webm ? new WebMOutputFormat() : new Mp4OutputFormat({ fastStart: "in-memory" }),
    target: new BufferTarget(),
  });
  const source = new EncodedAudioPacketSource(writer.codec);
  output.addAudioTrack(source);
  await output.start();
  for (const [index, packet] of group.entries()) {
    await source.add(
      packet.clone({ timestamp: packet.timestamp - start }),
      index === 0 ? { decoderConfig: writer.config } : undefined,
    );
  }
  await output.finalize();
  const bytes = new Uint8Array(output.target.buffer!);
  if (bytes.byteLength > maxBytes) {
    if (group.length < 2) throw new AudioFormatError(`one audio packet does not fit in ${maxBytes} bytes`);
    const half = Math.ceil(group.length / 2);
    return [
      ...(await written(group.slice(0, half), maxBytes, writer)),
      ...(await written(group.slice(half), maxBytes, writer)),
    ];
  }
  return [{
    bytes,
    extension: writer.webm ? "webm" : "m4a",
    startSeconds: Math.max(0, start - writer.origin),
    durationSeconds: end - start,
  }];
}
