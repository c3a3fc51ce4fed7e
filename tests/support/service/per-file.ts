/** @module One service for a whole e2e test file over its own loopback fakes of YouTube and the LLM. */
import { afterAll, beforeAll, beforeEach } from "bun:test";
import { type FakeLlm, startFakeLlm } from "../fake/llm.ts";
import { type FakeYoutube, startFakeYoutube } from "../fake/youtube.ts";
import { type RunningService, startService } from "./process.ts";

/** A test file's fakes and the service started over them. */
export interface ServicePerFile {
  readonly youtube: FakeYoutube;
  readonly llm: FakeLlm;
  readonly service: RunningService;
}

/** The fakes a file's settings are written with (their addresses). */
export type Fakes = { youtube: FakeYoutube; llm: FakeLlm };

/**
 * Starts fake YouTube, fake LLM and the service under test (the target of `E2E_TARGET`) before the
 * file's first test, and stops them after its last; the service gets exactly `settings(fakes)`.
 *
 * @param options.prepare runs on the fakes before the service starts (a canned LLM answer, say)
 * @param options.resetEach resets the fakes' records and behaviour before each test
 * @param options.stopSignal how the service is stopped at the end (SIGTERM by default)
 */
export function servicePerFile(
  settings: (fakes: Fakes) => Record<string, string>,
  options: { prepare?: (fakes: Fakes) => void; resetEach?: boolean; stopSignal?: NodeJS.Signals } = {},
): ServicePerFile {
  let fakes: Fakes | undefined;
  let service: RunningService | undefined;
  beforeAll(async () => {
    fakes = { youtube: startFakeYoutube(), llm: startFakeLlm() };
    options.prepare?.(fakes);
    service = await startService(settings(fakes));
  });
  afterAll(async () => {
    await service?.stop(options.stopSignal);
    await fakes?.youtube.close();
    await fakes?.llm.close();
  });
  if (options.resetEach) {
    beforeEach(() => {
      fakes?.youtube.reset();
      fakes?.llm.reset();
    });
  }
  return {
    get youtube() {
      return fakes!.youtube;
    },
    get llm() {
      return fakes!.llm;
    },
    get service() {
      return service!;
    },
  };
}
