/** @module A day of Groq's per-model free plans played in minutes: answers served on one model and on a chain. */
import { startFakeLlm } from "../../tests/support/fake/llm.ts";
import type { FakeYoutube } from "../../tests/support/fake/youtube.ts";
import { watchUrl } from "../../tests/support/fixtures.ts";
import { gptOss20bFreePlan } from "../../tests/support/fake/provider-limits.ts";
import { requestLogLines } from "../../tests/support/request-log-lines.ts";
import { startService } from "../../tests/support/service/process.ts";

/**
 * The scaled minute: a second, so a day (1,440 windows) is 24 minutes, and a request's deadline 4 s (4 windows, as
 * 120 s is 2 minutes): the day refills about 560 tokens within a deadline, less than any answer costs, so the run
 * ends at the first refusal once the day's tokens are spent rather than being paced by the refill.
 */
export const DAY_WINDOW_MS = 1_000;
const DEADLINE_MS = 4_000;
/** Groq's two gpt-oss models: the same published free plan (per model), on one key. */
export const CHAIN = ["openai/gpt-oss-20b", "openai/gpt-oss-120b"] as const;

/** What one run of a scaled day served. */
export interface DayRun {
  label: string;
  /** 200s before the first refusal. */
  answers: number;
  /** Answers written by each model. */
  byModel: Record<string, number>;
  /** The refusal that ended the run, and its Retry-After (s). */
  endedWith: string;
  /** Share of the scaled day the run took (the day refills evenly meanwhile). */
  dayShare: number;
  tokensCharged: number;
}

/**
 * Sends one kind of request after another, each on its own, until the first refusal, on a fresh fake Groq (each
 * model its own fresh day) and a fresh service.
 *
 * @param models `LLM_MODELS`
 * @param ask the n-th request's body
 */
export async function servedInADay(
  youtube: FakeYoutube,
  label: string,
  models: readonly string[],
  ask: (n: number) => Record<string, unknown>,
): Promise<DayRun> {
  const plans = Object.fromEntries(CHAIN.map((model) => [model, { ...gptOss20bFreePlan(DAY_WINDOW_MS), model }]));
  const llm = startFakeLlm({ limitsByModel: plans });
  const key = "bench-day-key-0123456789";
  const service = await startService({
    API_KEYS: key,
    YOUTUBE_BASE_URL: youtube.origin,
    GROQ_API_KEY: "gsk_bench_day",
    GROQ_BASE_URL: llm.baseUrl,
    LLM_MODELS: models.join(","),
    TEST_LLM_BUDGET_WINDOW_MS: String(DAY_WINDOW_MS),
    REQUEST_TIMEOUT_MS: String(DEADLINE_MS),
    ANSWER_CACHE_TTL_MS: "0",
  });
  const byModel: Record<string, number> = {};
  const started = performance.now();
  let endedWith = "none in 400 requests";
  try {
    for (let n = 0; n < 400; n++) {
      const response = await fetch(`${service.url}/chat`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": key },
        body: JSON.stringify(ask(n)),
      });
      const body = await response.json();
      if (response.status !== 200) {
        endedWith = `${response.status} ${body.error.code}, Retry-After ${response.headers.get("retry-after")} s`;
        break;
      }
      const model = String((await requestLogLines(service, response))[0]?.model ?? "?");
      byModel[model] = (byModel[model] ?? 0) + 1;
    }
    const charged = CHAIN.flatMap((model) => llm.limitsOf(model)!.charges).reduce((sum, c) => sum + c.tokens, 0);
    return {
      label,
      answers: Object.values(byModel).reduce((sum, count) => sum + count, 0),
      byModel,
      endedWith,
      dayShare: (performance.now() - started) / (DAY_WINDOW_MS * 1_440),
      tokensCharged: charged,
    };
  } finally {
    await service.stop();
    await llm.close();
  }
}

/** A question about a detail, a new one each time (no answer cache, no shared work). */
export const question = (n: number) => ({
  url: watchUrl("normal"),
  prompt: `What does the reviewer say about point ${n}?`,
});
/** A summary of the whole video, in the caller's words, a new one each time. */
export const summary = (n: number) => ({ url: watchUrl("normal"), prompt: `Summarize this video (${n})` });
