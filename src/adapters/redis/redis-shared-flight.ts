/** @module Identical work shared by every instance through a Redis lease, with takeover of dead owners. */
import { coalesceLocally } from "../../domain/coalesce.ts";
import { AppError, type ErrorCode, isAppError } from "../../domain/errors.ts";
import type { FlightEvents, SharedFlight, SharedResult } from "../../domain/ports.ts";
import type { RedisConnection } from "./redis-connection.ts";
import { EventRelay, type Follower, type Publication } from "./redis-event-relay.ts";

export interface RedisFlightOptions {
  /** Where the leases live and the waiters are woken: the state Redis (`REDIS_URL`). */
  connection: RedisConnection;
  /**
   * Where the outcomes and the relayed events go, each with a TTL: the caches' Redis (`REDIS_CACHE_URL`) when there
   * is one, so that a large value (a transcript, an answer's text) never takes the state Redis's memory. Default:
   * `connection`.
   */
  outcomes?: RedisConnection;
  /** How long a claim lasts unless its owner renews it: a dead owner is taken over after this (plus one poll). */
  leaseMs: number;
  /** How long a finished work's outcome stays readable by the waiters that missed its message. */
  outcomeTtlMs?: number;
  /** Pause between two reads of an owner's event stream by a waiter that follows it (default 50 ms). */
  relayPollMs?: number;
  /** Events relayed per work (default 10,000). */
  relayMaxEvents?: number;
}

/** What the owner leaves for the waiters: the value, or the failure as the owner's caller got it. */
type Outcome = { ok: true; value: unknown } | {
  ok: false;
  code: ErrorCode;
  message: string;
  retryAfterSeconds?: number;
};

/** Extends the lease only while this owner still holds it. */
const RENEW =
  "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0";

/** Frees the lease if this owner still holds it, and wakes the waiters. */
const ABANDON = "if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end redis.call('PUBLISH', " +
  "ARGV[2], ARGV[1]) return 1";
/** Frees the lease if this owner still holds it: nobody elsewhere said it waits. */
const RELEASE = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0";

const LOST = Symbol("lease lost without an outcome");
const DOWN = Symbol("Redis unreachable");
const ABANDONED = Symbol("nobody waits any more");
/** How a wait for another owner ended. */
type Waited = Outcome | typeof LOST | typeof DOWN | typeof ABANDONED;

/**
 * Identical work shared by every instance on one Redis. The first to claim a
 * key's lease (`SET` if absent, with an owner token and an expiry its owner
 * renews) does the work; the others say so on one channel (`flight:wait`)
 * and wait for its outcome, woken by a message on another (`flight:done`)
 * or, failing that, by polling with backoff. The outcome, a failure
 * included, is stored under the owner's token only briefly and only when a
 * waiter said it waits: a later call claims afresh, and a waiter whose word
 * came too late finds the lease freed without an outcome and claims it (its
 * work finds the cache filled). A lease that expires without an outcome (the
 * owner died) is claimed by a waiter. Redis unreachable: the work runs here,
 * shared within this process only (the connection logs the outage once).
 *
 * With `events`, the owner keeps its work's events, and writes them to a
 * stream of its token once a waiter that listens says so; that waiter
 * replays and follows the stream until the outcome (see EventRelay). A
 * waiter whose listener got deltas from an owner that died passes on no
 * deltas of the next owner's work.
 *
 * @param options the shared connection, the lease duration and the outcome's life
 */
export function createRedisSharedFlight(options: RedisFlightOptions): SharedFlight {
  const flight = new RedisFlight(options);
  return coalesceLocally((key, work, wanted, events) => flight.participate(key, work, wanted, events));
}

class RedisFlight {
  readonly #connection: RedisConnection;
  readonly #outcomes: RedisConnection;
  readonly #leaseMs: number;
  readonly #outcomeTtlMs: number;
  readonly #pollCapMs: number;
  readonly #instance = crypto.randomUUID().slice(0, 8);
  readonly #channel: string;
  readonly #relay: EventRelay;
  readonly #streamTtlMs: number;
  /** Wake-ups of the waits in this process, by the token of the owner they wait for. */
  readonly #listeners = new Map<string, Set<() => void>>();
  /** The work owned here, by token: whether a waiter elsewhere said it waits, and its events' publication. */
  readonly #owned = new Map<string, { waited: boolean; publication?: Publication }>();
  /** Where a waiter tells the owner it waits (`<token>`), and follows its events (`<token> events`). */
  readonly #waitChannel: string;

  constructor(options: RedisFlightOptions) {
    this.#connection = options.connection;
    this.#outcomes = options.outcomes ?? options.connection;
    this.#leaseMs = options.leaseMs;
    this.#outcomeTtlMs = options.outcomeTtlMs ?? Math.max(60_000, 2 * options.leaseMs);
    this.#pollCapMs = Math.max(50, Math.min(1_000, options.leaseMs / 4));
    this.#channel = `${options.connection.prefix}flight:done`;
    this.#streamTtlMs = this.#outcomeTtlMs + this.#leaseMs;
    const relay = {
      pollMs: options.relayPollMs ?? 50,
      maxEvents: options.relayMaxEvents ?? 10_000,
      ttlMs: this.#streamTtlMs,
    };
    this.#relay = new EventRelay({ connection: this.#outcomes, ...relay });
    this.#connection.subscribe(this.#channel, (token) => this.#listeners.get(token)?.forEach((wake) => wake()));
    this.#waitChannel = `${options.connection.prefix}flight:wait`;
    this.#connection.subscribe(this.#waitChannel, (message) => {
      const [token, events] = message.split(" ");
      const owned = this.#owned.get(token!);
      if (!owned) return;
      owned.waited = true;
      if (events) owned.publication?.followed();
    });
  }

  /** Claims the key's lease and works, or waits for its holder; takes over a lease that ends without an outcome. */
  async participate<T>(
    key: string,
    work: () => Promise<T>,
    wanted: () => boolean,
    events?: FlightEvents,
  ): Promise<SharedResult<T>> {
    const lease = `${this.#connection.prefix}flight:lease:${key}`;
    let sentDelta = false;
    for (;;) {
      const token = `${this.#instance}:${crypto.randomUUID()}`;
      const holder = await this.#claim(lease, token);
      if (holder === DOWN) return { value: await work(), role: "owner" };
      if (holder === null) return { value: await this.#own(lease, token, work, wanted, events), role: "owner" };
      const said = events?.listen ? `${holder} events` : holder;
      void this.#connection.run((c) => c.publish(this.#waitChannel, said)).catch(() => {});
      const follower: Follower | undefined = events?.listen
        ? this.#relay.follow(holder, events.listen, !sentDelta)
        : undefined;
      let outcome: Waited | undefined;
      try {
        outcome = await this.#waitFor(lease, holder, wanted);
      } finally {
        // A successful owner appended every event before its outcome: the follower reads them all first.
        await follower?.end(typeof outcome === "object" && outcome.ok);
      }
      sentDelta ||= follower?.sentDelta ?? false;
      if (outcome === LOST) continue;
      if (outcome === DOWN) return { value: await work(), role: "owner" };
      if (outcome === ABANDONED) throw new AppError("upstream_timeout", "Every caller stopped waiting for this work");
      if (!outcome.ok) {
        throw new AppError(outcome.code, outcome.message, { retryAfterSeconds: outcome.retryAfterSeconds });
      }
      return { value: outcome.value as T, role: "remote" };
    }
  }

  /** Takes the lease when it is free (`SET NX`: one command), else names its holder; @returns null when taken */
  async #claim(lease: string, token: string): Promise<string | null | typeof DOWN> {
    return await this.#connection.run(async (c) => {
      for (;;) {
        if (await c.set(lease, token, "PX", this.#leaseMs, "NX") !== null) return null;
        const holder = await c.get(lease);
        if (holder !== null) return holder; // else freed between the two: claim it again
      }
    }).catch((): typeof DOWN => DOWN);
  }

  /**
   * Works under the lease. Work that failed once no caller here waits any more (they all left, which cancels it)
   * leaves no outcome: the lease is freed, and a waiter on another instance takes the work over instead of failing
   * with this instance's cancellation.
   */
  async #own<T>(
    lease: string,
    token: string,
    work: () => Promise<T>,
    wanted: () => boolean,
    events?: FlightEvents,
  ): Promise<T> {
    const renew = () => void this.#connection.run((c) => c.eval(RENEW, 1, lease, token, this.#leaseMs)).catch(() => {});
    const renewing = setInterval(renew, Math.max(20, this.#leaseMs / 3));
    const publication = events ? this.#relay.publish(token, events) : undefined;
    this.#owned.set(token, { waited: false, publication });
    try {
      const value = await work();
      await this.#finish(lease, token, { ok: true, value });
      return value;
    } catch (error) {
      if (wanted()) await this.#finish(lease, token, failureOf(error));
      else await this.#free(lease, token);
      throw error;
    } finally {
      clearInterval(renewing);
      publication?.stop();
      this.#owned.delete(token);
    }
  }

  /**
   * Stores the outcome for the waiters elsewhere, if one said it waits, then frees the lease: a waiter that finds the
   * lease gone finds the outcome already there. The outcome not stored (its Redis gone): the waiters find the lease
   * freed without one and take the work over. The events must stay readable as long as the outcome: their expiry is
   * renewed with it unless it is already later (with half a lease to spare), which saves a command.
   */
  async #finish(lease: string, token: string, outcome: Outcome): Promise<void> {
    const owned = this.#owned.get(token);
    if (owned?.waited) {
      const outcomeKey = this.#outcomeKey(token);
      const text = JSON.stringify(outcome);
      const lasts = owned.publication?.lastsUntil(Date.now() + this.#outcomeTtlMs + this.#leaseMs / 2) ?? true;
      await this.#outcomes.run<unknown>((c) =>
        lasts
          ? c.set(outcomeKey, text, "PX", this.#outcomeTtlMs)
          : c.pipeline().set(outcomeKey, text, "PX", this.#outcomeTtlMs)
            .pexpire(this.#relay.key(token), this.#streamTtlMs).exec()
      ).catch(() => {});
    }
    // Redis gone: the waiters see the lease expire and take over, or run the work themselves.
    await this.#free(lease, token);
  }

  /**
   * Frees the lease if this owner still holds it, and wakes the waiters elsewhere when one said it waits; none did, no
   * message. A waiter whose word came too late finds the lease gone without an outcome and claims it, and its work
   * finds the answer or transcript cached.
   */
  async #free(lease: string, token: string): Promise<void> {
    const waited = this.#owned.get(token)?.waited;
    await this.#connection.run((c) =>
      waited ? c.eval(ABANDON, 1, lease, token, this.#channel) : c.eval(RELEASE, 1, lease, token)
    ).catch(() => {});
  }

  /** Waits for the holder's outcome: woken by its message, or polling with backoff. */
  async #waitFor(lease: string, holder: string, wanted: () => boolean): Promise<Waited> {
    const wake = new Wake();
    const woken = this.#listeners.get(holder) ?? new Set<() => void>();
    this.#listeners.set(holder, woken.add(wake.now));
    try {
      for (let pause = 20;; pause = Math.min(pause * 2, this.#pollCapMs)) {
        if (!wanted()) return ABANDONED;
        const outcome = await this.#outcomeOf(holder);
        if (outcome) return outcome;
        const current = await this.#connection.run((c) => c.get(lease)).catch((): typeof DOWN => DOWN);
        if (current === DOWN) return DOWN;
        // The owner stores its outcome before it frees the lease: read again, it may have come in between.
        if (current !== holder) return await this.#outcomeOf(holder) ?? LOST;
        await wake.after(pause);
      }
    } finally {
      woken.delete(wake.now);
      if (woken.size === 0) this.#listeners.delete(holder);
    }
  }

  /** @returns the outcome the holder stored, if any (its Redis unreachable: none yet) */
  async #outcomeOf(holder: string): Promise<Outcome | undefined> {
    const text = await this.#outcomes.run((c) => c.get(this.#outcomeKey(holder))).catch(() => null);
    return text ? JSON.parse(text) as Outcome : undefined;
  }

  #outcomeKey(token: string): string {
    return `${this.#outcomes.prefix}flight:outcome:${this.#outcomes.tag(token)}`;
  }
}

/** The failure as waiters elsewhere must see it: an AppError's code and message, anything else an internal error. */
function failureOf(error: unknown): Outcome {
  if (isAppError(error)) {
    return { ok: false, code: error.code, message: error.message, retryAfterSeconds: error.retryAfterSeconds };
  }
  return { ok: false, code: "internal_error", message: "The work failed on another instance; try again" };
}

/** A pause that ends early on a message for the awaited work. */
class Wake {
  #resolve: (() => void) | undefined;
  #woken = false;

  readonly now = (): void => {
    this.#woken = true;
    this.#resolve?.();
  };

  async after(ms: number): Promise<void> {
    if (this.#woken) {
      this.#woken = false;
      return;
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    await new Promise<void>((resolve) => {
      this.#resolve = resolve;
      timer = setTimeout(resolve, ms);
    });
    clearTimeout(timer);
    this.#resolve = undefined;
  }
}
