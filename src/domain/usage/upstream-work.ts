/** @module Upstream work runs only for a waiting admitted caller; each piece is charged to an admitted key. */
import { videoSeconds } from "../duration.ts";
import { AppError } from "../errors.ts";
import { type Account, TRIES_AFTER_FOREIGN_REFUSAL } from "./account.ts";

/*
 * Upstream work is a YouTube fetch, an audio download, speech-to-text or a model call. The chat use case,
 * `get_transcript` and speech-to-text go through this module:
 *
 * - Work shared by several callers (coalesce.ts, the Redis flights) is aborted once its last waiting caller leaves.
 * - Before the model or speech-to-text is asked, the caller whose work it is is admitted to the video's minutes and
 *   committed ({@link admitUpstream}); a request that has ended refuses, so work that runs on for others never passes
 *   on its admission without a hold. They meet that refusal as another caller's and do the work again as their own
 *   ({@link withOwnRefusals}).
 * - A caller joining shared work is committed once it follows it past the video's length (AdmittedListener).
 * - Speech-to-text charges each piece's audio seconds as soon as it is transcribed ({@link speechCharges}).
 */

/**
 * Admits `account` to a video of this length in seconds (undefined: unknown) and of this many characters of
 * transcript (undefined: not read yet: speech-to-text is about to make it) and commits it, just before its own work
 * asks the model or speech-to-text: from then on its caller pays for the work, whatever it does.
 *
 * @throws {AppError} the caller's refusal: its quota has no room, or its request has ended
 */
export async function admitUpstream(
  account: Account,
  videoSeconds: number | undefined,
  characters?: number,
): Promise<void> {
  if (account.checked) await account.admit(videoSeconds, characters);
  account.working(videoSeconds, characters);
}

/** What a transcript fetch run for a caller calls around speech-to-text (see `TranscriptQuery`). */
export interface SpeechCharges {
  /** Admits the caller to the video's minutes (undefined: unknown length) before any audio is fetched. */
  beforeSpeech(seconds: number | undefined): Promise<void>;
  /** Charges the caller a piece's audio seconds once transcribed. */
  onAudioTranscribed(seconds: number): void;
}

/**
 * The hooks a transcript fetch run for `account` hands to speech-to-text: the caller is admitted to the video's
 * minutes before any audio is fetched, and charged each piece's audio seconds once transcribed.
 *
 * @param admitted told the video's length once the caller is admitted to it (before any audio is fetched)
 */
export function speechCharges(account: Account, admitted?: (videoSeconds: number | undefined) => void): SpeechCharges {
  return {
    beforeSpeech: async (seconds) => {
      const known = videoSeconds(seconds);
      await admitUpstream(account, known);
      admitted?.(known);
    },
    onAudioTranscribed: (seconds) => account.spend({ audioSeconds: seconds }),
  };
}

/**
 * Runs `attempt` again when it fails with another caller's refusal met through shared work (their quota, or their
 * request ended): this caller does the work as its own. After {@link TRIES_AFTER_FOREIGN_REFUSAL} tries it fails with
 * a message of its own: another key's quota message and `Retry-After` never reach this caller.
 */
export async function withOwnRefusals<T>(account: Account, attempt: () => Promise<T>): Promise<T> {
  for (let tries = 1;; tries++) {
    try {
      return await attempt();
    } catch (error) {
      if (!account.foreign(error)) throw error;
      if (tries >= TRIES_AFTER_FOREIGN_REFUSAL) {
        throw new AppError(
          "upstream_error",
          "The work this request shared with other requests was stopped several times; send the request again",
          { cause: error },
        );
      }
    }
  }
}
