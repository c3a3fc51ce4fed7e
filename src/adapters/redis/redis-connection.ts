/** @module The Redis connection shared by every Redis adapter, with fail-fast commands and outage tracking. */
import { Cluster, Redis, type RedisOptions } from "ioredis";

/** A client of one Redis, or of a Redis Cluster: the same commands, routed by key on a cluster. */
export type RedisClient = Redis | Cluster;

/**
 * Where Redis is: one server's URL, or the seed nodes of a Redis Cluster (`redis://host:port` each; the client learns
 * the other nodes from them).
 */
export type RedisAddress = { url: string } | { clusterNodes: readonly string[] };

/** Where the Redis adapters report an outage (once) and its end. */
export interface RedisLog {
  warn(event: string, fields?: Record<string, unknown>): void;
  info(event: string, fields?: Record<string, unknown>): void;
}

/** One client shared by every Redis adapter of a process, with outage tracking. */
export interface RedisConnection {
  /** Prepended to every key, e.g. `vcs:`. */
  readonly prefix: string;
  /**
   * The part of a key that picks its Redis Cluster slot: `{id}` on a cluster, so that the keys one script touches
   * (all built with the same id) live on one node; `id` unchanged on one Redis, whose keys keep the names they had.
   */
  tag(id: string): string;
  /** Whether the last command (or connection attempt) succeeded. */
  readonly available: boolean;
  /**
   * Runs commands. Fails fast while Redis is unreachable (no offline queue)
   * and after `commandTimeoutMs` when Redis stops answering.
   *
   * @throws whatever the client threw; the first failure of an outage is logged
   */
  run<T>(command: (client: RedisClient) => Promise<T>): Promise<T>;
  /**
   * Listens to a channel on a second client of its own (a subscribed client can
   * send nothing else), made on first use. It reconnects and resubscribes by
   * itself; messages sent during an outage are lost, so listeners poll too.
   */
  subscribe(channel: string, onMessage: (message: string) => void): void;
  /** @returns whether Redis became ready within `timeoutMs` */
  ready(timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * Connects to Redis with settings that never let a request hang on a dead
 * server: commands fail at once while disconnected (no offline queue), each
 * command has a time limit, and the client keeps reconnecting in the
 * background (every 2 s at most); a command that times out drops the
 * connection, so a Redis that stops answering costs one timeout, not one per
 * command. An outage is logged once when it starts
 * (`redis_unavailable`) and once when it ends (`redis_recovered`).
 *
 * On a Redis Cluster the same holds per node; the client follows the cluster's slots (refreshed on `MOVED`), and
 * a command sent while a failed master's slots have no new master yet fails at once, like one sent during an outage.
 *
 * @param options.url one server's `redis://` or `rediss://` URL (it may carry a password and a db number)
 * @param options.clusterNodes instead of `url`, a cluster's seed nodes (the first one's password and scheme count)
 * @param options.password the password when the URL carries none
 * @param options.prefix prepended to every key
 * @param options.log where outages are reported
 * @param options.commandTimeoutMs time limit of each command (default 1000)
 * @param options.onAvailability told each time Redis becomes reachable or unreachable (readiness, metrics)
 */
export function createRedisConnection(
  options: RedisAddress & {
    /** Used when the URL carries no password. */
    password?: string;
    prefix: string;
    log: RedisLog;
    commandTimeoutMs?: number;
    onAvailability?: (available: boolean) => void;
  },
): RedisConnection {
  const client = connect(options, options.password, options.commandTimeoutMs ?? 1_000);
  const cluster = "clusterNodes" in options;
  let available = false;
  let everReady = false;
  let outageLogged = false;
  let closing = false;
  let subscriber: RedisClient | undefined;
  const channels = new Map<string, (message: string) => void>();
  const listen = (): RedisClient => {
    // Two calls, one per client type: TypeScript cannot call `duplicate` on the union of their signatures.
    const sub = client instanceof Cluster ? client.duplicate() : client.duplicate();
    sub.on("error", () => {}); // the main client reports outages
    sub.on("ready", () => void sub.subscribe(...channels.keys()).catch(() => {}));
    sub.on("message", (channel: string, message: string) => channels.get(channel)?.(message));
    return sub;
  };

  const fail = (error: unknown): void => {
    if (available) options.onAvailability?.(false);
    available = false;
    if (outageLogged || closing) return;
    outageLogged = true;
    options.log.warn("redis_unavailable", {
      error: describeRedisError(error),
      effect: "caches miss, work in flight is shared per instance only, rate limits and keys fall back as configured",
    });
  };
  client.on("error", fail);
  client.on("ready", () => {
    if (!available) options.onAvailability?.(true);
    available = true;
    if (outageLogged) options.log.info("redis_recovered", {});
    outageLogged = false;
    everReady = true;
  });
  client.on("close", () => {
    if (everReady) fail(new Error("Connection closed"));
  });

  return {
    prefix: options.prefix,
    tag: cluster ? (id) => `{${id}}` : (id) => id,
    get available() {
      return available;
    },
    async run(command) {
      try {
        return await command(client);
      } catch (error) {
        if (!isReplyError(error)) fail(error);
        // A connection that let a command time out is not trusted: dropping it makes the
        // commands after it fail at once (no offline queue) until a reconnect succeeds.
        if (error instanceof Error && error.message === "Command timed out" && client.status === "ready") {
          client.disconnect(true);
        }
        throw error;
      }
    },
    subscribe(channel, onMessage) {
      channels.set(channel, onMessage);
      if (!subscriber) subscriber = listen();
      else if (subscriber.status === "ready") void subscriber.subscribe(channel).catch(() => {});
    },
    async ready(timeoutMs) {
      if (available) return true;
      return await new Promise<boolean>((resolve) => {
        const done = (value: boolean) => {
          clearTimeout(timer);
          client.off("ready", onReady);
          resolve(value);
        };
        const onReady = () => done(true);
        const timer = setTimeout(() => done(false), timeoutMs);
        client.on("ready", onReady);
      });
    },
    async close() {
      closing = true;
      subscriber?.disconnect();
      client.disconnect();
    },
  };
}

/** Reconnects every 2 s at most. */
const retryStrategy = (attempt: number): number => Math.min(attempt * 200, 2_000);

/** A client that never queues a command while disconnected, and limits each command's time. */
function connect(address: RedisAddress, password: string | undefined, commandTimeoutMs: number): RedisClient {
  const shared: RedisOptions = { commandTimeout: commandTimeoutMs, connectTimeout: 2_000, maxRetriesPerRequest: 0 };
  if ("url" in address) {
    return new Redis(address.url, {
      ...shared,
      enableOfflineQueue: false,
      retryStrategy,
      lazyConnect: false,
      // Given after the URL's own settings, so that a password in the URL wins.
      ...(password && !new URL(address.url).password ? { password } : {}),
    });
  }
  const seeds = address.clusterNodes.map((node) => new URL(node));
  const first = seeds[0]!;
  return new Cluster(seeds.map((url) => ({ host: url.hostname, port: Number(url.port || 6379) })), {
    enableOfflineQueue: false,
    clusterRetryStrategy: retryStrategy,
    redisOptions: {
      ...shared,
      ...(first.username ? { username: decodeURIComponent(first.username) } : {}),
      ...(first.password || password
        ? { password: first.password ? decodeURIComponent(first.password) : password }
        : {}),
      ...(first.protocol === "rediss:" ? { tls: {} } : {}),
    },
  });
}

/** Redis answered with an error (a bug or bad data), as opposed to not answering. */
function isReplyError(error: unknown): boolean {
  return error instanceof Error && error.name === "ReplyError";
}

/** A short description for logs, without the URL (it may hold a password). */
export function describeRedisError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/rediss?:\/\/\S*/g, "<redis url>").slice(0, 200);
}
