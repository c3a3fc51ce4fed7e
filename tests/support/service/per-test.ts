/** @module Fake YouTube and LLM for a whole test file, and one fresh service per test. */
import { afterAll, afterEach, beforeAll } from "bun:test";
import { type FakeLlm, startFakeLlm } from "../fake/llm.ts";
import { type FakeYoutube, startFakeYoutube } from "../fake/youtube.ts";
import { type RunningService, startService } from "./process.ts";

/** A test file's fakes, and the service of the test running now. */
export interface ServicePerTest {
  readonly youtube: FakeYoutube;
  readonly llm: FakeLlm;
  /** Starts this test's service on the file's settings plus `env`; it is killed once the test ends. */
  start(env?: Record<string, string>): Promise<RunningService>;
}

/**
 * Fake YouTube and LLM for a whole test file, and one service per test over
 * them: for files whose tests each need a service of their own (shutdown,
 * settings read at start-up). After each test the service is killed and the
 * fakes are reset.
 *
 * @param settings the service's settings, given the fakes (their addresses)
 */
export function servicePerTest(
  settings: (fakes: { youtube: FakeYoutube; llm: FakeLlm }) => Record<string, string>,
): ServicePerTest {
  let youtube: FakeYoutube | undefined;
  let llm: FakeLlm | undefined;
  let running: RunningService | undefined;
  beforeAll(() => {
    youtube = startFakeYoutube();
    llm = startFakeLlm();
  });
  afterEach(async () => {
    await running?.stop("SIGKILL");
    running = undefined;
    youtube?.reset();
    llm?.reset();
  });
  afterAll(async () => {
    await youtube?.close();
    await llm?.close();
  });
  return {
    get youtube() {
      return youtube!;
    },
    get llm() {
      return llm!;
    },
    async start(env = {}) {
      running = await startService({ ...settings({ youtube: youtube!, llm: llm! }), ...env });
      return running;
    },
  };
}
