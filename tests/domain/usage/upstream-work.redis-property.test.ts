/** @module Property test of issue 48 on two instances sharing work through one Redis. */
import { afterAll, describe, test } from "bun:test";
import fc from "fast-check";
import { Redis } from "ioredis";
import { createRedisConnection, type RedisConnection } from "../../../src/adapters/redis/redis-connection.ts";
import { createRedisSharedFlight } from "../../../src/adapters/redis/redis-shared-flight.ts";
import type { SharedFlight } from "../../../src/domain/ports.ts";
import { dropPrefix, uniquePrefix } from "../../support/redis-server.ts";
import { checkRun, plan, run } from "../../support/upstream-work-property.ts";

/*
 * The callers of upstream-work.property.test.ts; the two instances share work through the Redis flights, each with its
 * own connection, under a fresh key prefix per run.
 */
const url = process.env.TEST_REDIS_URL;

describe.skipIf(!url)("upstream work only for an admitted caller, two instances on one Redis (property)", () => {
  const admin = url ? new Redis(url) : undefined;
  const prefixes: string[] = [];

  afterAll(async () => {
    for (const prefix of prefixes) await dropPrefix(admin!, prefix);
    admin?.disconnect();
  });

  /** One instance: its own connection (and subscriber) and its own flight, under the run's prefix. */
  async function instance(prefix: string, opened: RedisConnection[]): Promise<SharedFlight> {
    const connection = createRedisConnection({
      url: url!,
      prefix,
      log: { warn() {}, info() {} },
      commandTimeoutMs: 500,
    });
    opened.push(connection);
    if (!(await connection.ready(3_000))) throw new Error("the test Redis is not ready");
    return createRedisSharedFlight({ connection, leaseMs: 5_000, relayPollMs: 5 });
  }

  test(
    "random joins, leaves, cancels and time-outs of JSON, streamed (SSE) and get_transcript callers: all work " +
      "charged, none for nobody",
    async () => {
      await fc.assert(
        fc.asyncProperty(plan, async (p) => {
          const prefix = uniquePrefix("upstream-work");
          prefixes.push(prefix);
          const opened: RedisConnection[] = [];
          try {
            const flights = [await instance(prefix, opened), await instance(prefix, opened)] as const;
            await Bun.sleep(20); // lets the subscribers connect
            checkRun(await run(p, flights, 30));
          } finally {
            for (const connection of opened) await connection.close();
          }
        }),
        { numRuns: 30 },
      );
    },
    60_000,
  );
});
