/** @module Property test of issue 48 in one process: all work charged, none run for nobody. */
import { describe, test } from "bun:test";
import fc from "fast-check";
import { createLocalFlight } from "../../../src/domain/coalesce.ts";
import { checkRun, plan, run } from "../../support/upstream-work-property.ts";

/*
 * Callers chat as JSON or streamed (what SSE is at the use case: the HTTP adapter only writes the listener's events),
 * or read a transcript as MCP's get_transcript does; see tests/support/upstream-work-property.ts. The same over Redis:
 * upstream-work.redis-property.test.ts.
 */
describe("upstream work only for an admitted caller (property)", () => {
  test(
    "random joins, leaves, cancels and time-outs of JSON, streamed (SSE) and get_transcript callers over two " +
      "instances: all work charged, none for nobody",
    async () => {
      await fc.assert(
        fc.asyncProperty(plan, async (p) => {
          // Both instances share one in-process flight.
          const flight = createLocalFlight();
          checkRun(await run(p, [flight, flight]));
        }),
        { numRuns: 100 },
      );
    },
    60_000,
  );
});
