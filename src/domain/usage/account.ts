/** @module One caller's side of its answer: admitted once to the video's minutes, and what its own work spent. */
import { chargedMinutes } from "./quota.ts";

/** What a request's own work spent upstream (none for a cache hit, or a request that joined another's work). */
export interface Spent {
  inputTokens: number;
  outputTokens: number;
  /** Seconds of audio transcribed for it (a video without captions). */
  audioSeconds: number;
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
  #admitted = false;
  #refusal: unknown;

  /** @param admit the caller's quota check for a video's minutes; none for a caller without a quota */
  constructor(admit?: (minutes: number) => Promise<void>) {
    this.#admit = admit;
  }

  /** Whether the caller's quota must admit it to its answer (else `admit` does nothing). */
  get checked(): boolean {
    return this.#admit !== undefined && !this.#admitted;
  }

  /** Admits the caller to an answer about a video of this length (once; later calls do nothing). */
  async admit(videoDuration: string): Promise<void> {
    if (this.#admitted || !this.#admit) return;
    try {
      await this.#admit(chargedMinutes(videoDuration));
      this.#admitted = true;
    } catch (error) {
      this.#refusal = error;
      throw error;
    }
  }

  /** Whether `error` is another caller's quota refusal, met through shared work: this caller should try again. */
  foreign(error: unknown): boolean {
    return (error as { code?: unknown })?.code === "quota_exceeded" && error !== this.#refusal;
  }
}
