/** @module Relays a shared work's events from its owner to waiters on other instances through Redis Streams. */
import type { FlightEvent, FlightEvents } from "../../domain/ports.ts";
import type { RedisConnection } from "./redis-connection.ts";

/**
 * Appends one event with its place `n`, keeping the stream bounded; with `ttlMs`, renews its expiry in the same
 * write (a pipeline, not a script: two commands instead of three). Sent together in one small write, the two reach
 * Redis together, so a stream is not left without an expiry.
 */
async function append(
  connection: RedisConnection,
  stream: string,
  entry: { maxEvents: number; n: number; text: string; ttlMs?: number },
): Promise<void> {
  const { maxEvents, n, text, ttlMs } = entry;
  if (ttlMs === undefined) {
    await connection.run((c) => c.xadd(stream, "MAXLEN", "~", maxEvents, "*", "n", n, "e", text));
    return;
  }
  const replies = await connection.run((c) =>
    c.pipeline().xadd(stream, "MAXLEN", "~", maxEvents, "*", "n", n, "e", text).pexpire(stream, ttlMs).exec()
  );
  const failed = replies?.find(([error]) => error);
  if (failed) throw failed[0];
}

/** An owner's publishing of its work's events (see `EventRelay.publish`). */
export interface Publication {
  stop(): void;
  /** A waiter elsewhere follows the work: the events so far are written, and every later one as it comes. */
  followed(): void;
  /** Whether the stream lasts until `at` (clock ms) without a renewal: none was written, or its expiry is later. */
  lastsUntil(at: number): boolean;
}

/** Entries read per XREAD: a stream is followed in bounded steps. */
const BATCH = 500;

export interface EventRelayOptions {
  connection: RedisConnection;
  /** Events kept per work (`MAXLEN ~`); the owner sends no more than this, the rest reaches waiters with the value. */
  maxEvents: number;
  /** How long a stream lives after its last write. */
  ttlMs: number;
  /** Pause between two reads of a stream that had nothing new. */
  pollMs: number;
}

/**
 * A shared work's events, relayed from its owner to the waiters on other
 * instances through one Redis Stream per owner token, written only once a
 * waiter follows them (the owner's publication is told: see
 * `Publication.followed`): the events so far, then every later one. Work
 * nobody follows from elsewhere, the common case, writes no stream. Every
 * failure only stops the relay (a follower the owner never heard of
 * included): a waiter then gets the text still missing with the value (the
 * stream's last step), so a request never fails for it. Each event carries
 * its place in the work (`n`): a waiter that finds a gap (trimmed, or an
 * append lost to an outage) stops following rather than skip text.
 */
export class EventRelay {
  readonly #options: EventRelayOptions;

  constructor(options: EventRelayOptions) {
    this.#options = options;
  }

  /** The stream of the work whose owner holds `token`. */
  key(token: string): string {
    const { connection } = this.#options;
    return `${connection.prefix}flight:events:${connection.tag(token)}`;
  }

  /**
   * Sends the events of the work run here under `token`, in order (one connection keeps them so). The stream's expiry
   * is set with its first event, then renewed with the first event once half its lifetime has passed.
   */
  publish(token: string, events: FlightEvents): Publication {
    const { connection, maxEvents, ttlMs } = this.#options;
    const stream = this.key(token);
    let next = 0;
    let broken = false;
    let renewedAt: number | undefined;
    /** The events so far while no waiter elsewhere follows: kept here, not written. */
    let waiting: string[] | undefined = [];
    const send = (n: number, text: string): void => {
      const now = Date.now();
      const renew = renewedAt === undefined || now - renewedAt >= ttlMs / 2;
      if (renew) renewedAt = now;
      append(connection, stream, { maxEvents, n, text, ttlMs: renew ? ttlMs : undefined }).catch(() => (broken = true));
    };
    const stop = events.publish((event) => {
      if (broken || next >= maxEvents) return;
      const n = next++;
      const text = JSON.stringify(event);
      if (waiting) waiting.push(text);
      else send(n, text);
    });
    return {
      stop,
      followed: () => {
        if (!waiting) return;
        const kept = waiting;
        waiting = undefined;
        kept.forEach((text, n) => send(n, text));
      },
      // The renewal's time is read before it is sent: the stream expires no sooner than this says.
      lastsUntil: (at) => renewedAt === undefined || renewedAt + ttlMs >= at,
    };
  }

  /**
   * Replays the stream of `token` from its first event, then follows it.
   *
   * @param deltas false to pass progress only (deltas of an earlier owner already went out)
   */
  follow(token: string, listen: (event: FlightEvent) => void, deltas: boolean): Follower {
    return new Follower(this.#options, this.key(token), listen, deltas);
  }
}

/** One waiter's reading of one stream: a loop of short polls on the shared connection. */
export class Follower {
  /** Whether a delta was passed on. */
  sentDelta = false;
  readonly #options: EventRelayOptions;
  readonly #stream: string;
  readonly #listen: (event: FlightEvent) => void;
  readonly #deltas: boolean;
  readonly #loop: Promise<void>;
  #last = "0-0";
  #next = 0;
  #broken = false;
  #stopped = false;
  #wake = (): void => {};

  constructor(options: EventRelayOptions, stream: string, listen: (event: FlightEvent) => void, deltas: boolean) {
    this.#options = options;
    this.#stream = stream;
    this.#listen = listen;
    this.#deltas = deltas;
    this.#loop = this.#run();
  }

  /**
   * Stops following. With `drain` (the work succeeded: its owner appended
   * every event before its outcome), first reads every event left.
   */
  async end(drain: boolean): Promise<void> {
    this.#stopped = true;
    this.#wake();
    await this.#loop;
    if (drain) { while ((await this.#read()) >= BATCH); }
  }

  async #run(): Promise<void> {
    while (!this.#stopped && !this.#broken) {
      if ((await this.#read()) > 0 || this.#stopped) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.#options.pollMs);
        this.#wake = () => (clearTimeout(timer), resolve());
      });
    }
  }

  /** @returns how many entries were read (0 once the stream broke) */
  async #read(): Promise<number> {
    if (this.#broken) return 0;
    try {
      const reply = await this.#options.connection.run((c) =>
        c.xread("COUNT", BATCH, "STREAMS", this.#stream, this.#last)
      );
      const entries = reply?.[0]?.[1] ?? [];
      for (const [id, fields] of entries) {
        this.#last = id;
        if (Number(fields[1]) !== this.#next++) throw new Error("A gap in the stream");
        this.#pass(JSON.parse(fields[3]!) as FlightEvent);
      }
      return entries.length;
    } catch {
      this.#broken = true; // the value, when it comes, carries what is missing
      return 0;
    }
  }

  #pass(event: FlightEvent): void {
    if (event.type === "delta") {
      if (!this.#deltas) return;
      this.sentDelta = true;
    }
    this.#listen(event);
  }
}
