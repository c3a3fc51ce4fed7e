/** @module What each InnerTube client answered: per fetch for the request log, per client for metrics. */
import { clientLabel, type InnertubeClient } from "./innertube-clients.ts";
import { type YoutubeOutcome, youtubeOutcome } from "./observed-call.ts";
import { isUnreadable } from "./unreadable.ts";

/** How one client's player call ended, as the request log and the doctor name it: a call's outcome, or unreadable. */
export type ClientAnswer = YoutubeOutcome | "unreadable";

/** @returns what a failed player call says about its client */
export function clientAnswer(error: unknown): ClientAnswer {
  return isUnreadable(error) ? "unreadable" : youtubeOutcome(error);
}

/** Whether each configured client was last seen served or refused as retired, as this instance saw it. */
export interface ClientHealth {
  /** One player call of `client` ended so. */
  note(client: { name: string; version: string }, answer: ClientAnswer): void;
  /** @returns each configured client, and whether its last answer was anything but retired (never asked: true) */
  snapshot(): { client: string; version: string; up: boolean }[];
  /** @returns the first of `clients` whose last answer was not retired, if any */
  current(clients: readonly InnertubeClient[]): InnertubeClient | undefined;
}

/**
 * @param clients every configured client (caption and audio clients), the gauge's closed label set
 * @returns the record, every client up until it answers otherwise
 */
export function createClientHealth(clients: readonly { name: string; version: string }[]): ClientHealth {
  const retired = new Map<string, boolean>();
  const listed = [...new Map(clients.map((c) => [clientLabel(c), c])).values()];
  return {
    note(client, answer) {
      retired.set(clientLabel(client), answer === "retired");
    },
    snapshot: () =>
      listed.map((c) => ({ client: c.name, version: c.version, up: retired.get(clientLabel(c)) !== true })),
    current: (candidates) => candidates.find((c) => retired.get(clientLabel(c)) !== true),
  };
}

/** What the clients asked during one try of a fetch answered, and which one served it. */
export class ClientTrail {
  readonly answers: Record<string, ClientAnswer> = {};
  readonly retired: InnertubeClient[] = [];
  served?: string;
  readonly #health?: ClientHealth;

  constructor(health?: ClientHealth) {
    this.#health = health;
  }

  /** Notes one client's answer here and in the per-client record. */
  note(client: InnertubeClient, answer: ClientAnswer): void {
    this.answers[client.name] = answer;
    if (answer === "retired" && !this.retired.includes(client)) this.retired.push(client);
    this.#health?.note(client, answer);
  }

  /** @returns whether this try already saw `client` refused as retired */
  isRetired(client: InnertubeClient): boolean {
    return this.retired.includes(client);
  }
}
