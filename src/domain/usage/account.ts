/** @module One caller's side of its answer: admitted once to the video's minutes, and what its own work spent. */
import { chargedMinutes } from "./quota.ts";

/** What a request's own work spent upstream (none for a cache hit, or a request that joined another's work). */
export interface Spent {
  inputTokens: number;
  outputTokens: number;
  /** Seconds of audio transcribed for it (a video without captions). */
  audioSeconds: number;
}

/** How a caller is charged: its quota's check of a video's minutes, and what its own work spends (all optional). */
export interface Charging {
  /**
   * The caller's quota check for the video's minutes (whole, at least 1), awaited before work is spent on the
   * answer: before the model is asked (once the transcript gives the length), or before a cached or shared
   * answer is handed over. It throws the caller's refusal.
   */
  admit?: (minutes: number) => Promise<void>;
  /**
   * The work calls this with what it spends upstream for this caller, as soon as it spends it (the audio transcribed,
   * then the model's tokens), whether or not the caller still waits: the meter charges the key whose request spent it.
   */
  spend?: (spent: Spent) => void;
  /**
   * The work calls this once, with the video's minutes, just before this caller's own work asks the model or
   * speech-to-text (after `admit`): from then on the caller pays for the work whatever it does.
   */
  working?: (minutes: number) => void;
  /**
   * The work this caller ran failed on what the video's uploader controls after the caller was committed (its audio
   * was transcribed and holds no speech): the caller is charged the request and the minutes it held, as a caller
   * that leaves is, instead of having them given back.
   */
  chargeFailure?: () => void;
}

/** Tries of a request whose shared work another caller's quota refused (each try after the first does the work). */
export const TRIES_AFTER_FOREIGN_REFUSAL = 4;

/**
 * One caller's side of its answer: admitted once to the video's minutes
 * (its quota), and what its own work spent. Work is shared by callers of
 * several keys: a refusal thrown by one caller's admission reaches the
 * others sharing the work, which must not take it for their own.
 */
export class Account {
  /** What this caller's own work spent, once it wrote the answer. */
  spent?: Spent;
  readonly #admit?: (minutes: number) => Promise<void>;
  readonly #spend?: (spent: Spent) => void;
  readonly #working?: (minutes: number) => void;
  readonly #chargeFailure?: () => void;
  #admission?: Promise<void>;
  #worked = false;
  #admitted = false;
  #refusal: unknown;

  /**
   * @param charging.admit the caller's quota check for a video's minutes; none for a caller without a quota of minutes
   * @param charging.spend told at once of what the caller's own work spends upstream, even if the caller has left
   * @param charging.working told once the caller's own work is about to spend upstream, with the video's minutes (it
   *   throws once the caller's request has ended)
   */
  constructor(charging: Charging = {}) {
    this.#admit = charging.admit;
    this.#spend = charging.spend;
    this.#working = charging.working;
    this.#chargeFailure = charging.chargeFailure;
  }

  /**
   * The caller's work failed on what the uploader controls (see {@link Charging.chargeFailure}): a caller committed
   * to it is charged; one that was not (its transcript came from the cache, or from another caller's work) is not.
   */
  chargeFailure(): void {
    this.#chargeFailure?.();
  }

  /**
   * From now on the caller pays for the work, whatever it does: its own work is about to ask the model or
   * speech-to-text about a video of this length in seconds (undefined: unknown) and of this many characters of
   * transcript (undefined: not read yet), or it follows shared work past the video's length. Told once, unless the
   * caller's meter refused it (it throws: its request has ended).
   */
  working(videoSeconds: number | undefined, characters?: number): void {
    if (this.#worked) return;
    this.#working?.(chargedMinutes(videoSeconds, characters));
    this.#worked = true;
  }

  /** Whether the caller's quota must admit it to its answer (else `admit` does nothing). */
  get checked(): boolean {
    return this.#admit !== undefined && !this.#admitted;
  }

  /**
   * Admits the caller to an answer about a video of this length in seconds (undefined: unknown) and of this many
   * characters of transcript (undefined: not read yet), to the minutes `chargedMinutes` makes of them, once: a second
   * call, concurrent or later, shares the first one's outcome.
   */
  admit(videoSeconds: number | undefined, characters?: number): Promise<void> {
    if (!this.#admit) return Promise.resolve();
    this.#admission ??= this.#admit(chargedMinutes(videoSeconds, characters)).then(
      () => void (this.#admitted = true),
      (error: unknown) => {
        this.#refusal = error;
        throw error;
      },
    );
    return this.#admission;
  }

  /** Adds what the caller's own work spent upstream, and tells it at once (it is charged whatever the caller does). */
  spend(more: Partial<Spent>): void {
    const spent: Spent = {
      inputTokens: (this.spent?.inputTokens ?? 0) + (more.inputTokens ?? 0),
      outputTokens: (this.spent?.outputTokens ?? 0) + (more.outputTokens ?? 0),
      audioSeconds: (this.spent?.audioSeconds ?? 0) + (more.audioSeconds ?? 0),
    };
    this.spent = spent;
    this.#spend?.({ inputTokens: 0, outputTokens: 0, audioSeconds: 0, ...more });
  }

  /** Whether `error` is another caller's quota refusal, met through shared work: this caller should try again. */
  foreign(error: unknown): boolean {
    return (error as { code?: unknown })?.code === "quota_exceeded" && error !== this.#refusal;
  }
}
