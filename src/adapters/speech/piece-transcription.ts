/** @module Transcribes a video's audio pieces concurrently within the speech budget, on the audio's clock. */
import type { AudioPiece } from "./audio-pieces.ts";
import { SpeechLimitError, type SpeechSegment, type Transcriber } from "./groq-transcriber.ts";
import type { SpeechBudget } from "./speech-budget.ts";
import { languageCode } from "./whisper-languages.ts";

/** How an upload ended, as operators count it. */
export type UploadOutcome = "ok" | "429" | "error";

/** The transcription calls this once each upload has ended, with the seconds of audio it carried; it must not throw. */
export type SpeechObserver = (outcome: UploadOutcome, audioSeconds: number) => void;

/** What the pieces' transcription needs. */
export interface PieceJob {
  videoId: string;
  transcribe: Transcriber;
  budget: SpeechBudget;
  deadline: number;
  concurrency?: number;
  signal?: AbortSignal;
  onTranscribing?: (done: number, total: number) => void;
  /** Told the seconds of each piece once transcribed (the caller is charged them at once). */
  onPieceTranscribed?: (seconds: number) => void;
  observe?: SpeechObserver;
}

/**
 * @returns every piece's segments offset by the piece's start, in order, and the language whisper heard most
 * @throws {AppError} the first failure of any piece (the others are stopped)
 */
export async function transcribePieces(
  pieces: readonly AudioPiece[],
  job: PieceJob,
): Promise<{ segments: SpeechSegment[]; language?: string }> {
  const results: SpeechSegment[][] = new Array(pieces.length);
  const languages = new Map<string, number>();
  const stop = new AbortController();
  const signal = job.signal ? AbortSignal.any([job.signal, stop.signal]) : stop.signal;
  let next = 0;
  let done = 0;
  job.onTranscribing?.(0, pieces.length);

  async function worker(): Promise<void> {
    while (next < pieces.length && !signal.aborted) {
      const index = next++;
      const piece = pieces[index]!;
      await job.budget.takeRequest(job.deadline, signal);
      try {
        const heard = await job.transcribe(piece, job.videoId, signal);
        await job.budget.observe(heard.report);
        job.observe?.("ok", piece.durationSeconds);
        job.onPieceTranscribed?.(piece.durationSeconds);
        results[index] = heard.segments.map((s) => ({
          start: s.start + piece.startSeconds,
          end: s.end + piece.startSeconds,
          text: s.text,
        }));
        const code = languageCode(heard.language);
        if (code) languages.set(code, (languages.get(code) ?? 0) + piece.durationSeconds);
      } catch (error) {
        job.observe?.(error instanceof SpeechLimitError ? "429" : "error", piece.durationSeconds);
        if (error instanceof SpeechLimitError) {
          await job.budget.observe(error.report, error.error.cause instanceof Error ? error.error.cause.message : "");
          throw error.error;
        }
        throw error;
      }
      job.onTranscribing?.(++done, pieces.length);
    }
  }

  try {
    await Promise.all(
      Array.from({ length: Math.min(job.concurrency ?? 4, pieces.length) }, () =>
        worker().catch((error) => {
          stop.abort(error);
          throw error;
        })),
    );
  } catch (error) {
    throw stop.signal.aborted ? stop.signal.reason : error;
  }
  const language = [...languages].sort((a, b) => b[1] - a[1])[0]?.[0];
  return { segments: results.flat(), language };
}
