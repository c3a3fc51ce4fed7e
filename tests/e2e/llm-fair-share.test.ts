import { afterEach, describe, expect, test } from "bun:test";
import { VIDEOS, watchUrl } from "../support/fixtures.ts";
import { captionXml, generateCues } from "../support/long-transcript.ts";
import { requestLogLines } from "../support/request-log-lines.ts";
import { postChat, startService, type RunningService } from "../support/service-process.ts";
import { API_KEY, startLlmHarness, type LlmHarness } from "./llm-harness.ts";

/**
 * Issue 22's mixed workload on Groq's free plan (6,000 tokens and 30
 * requests a minute), played ten times faster like llm-free-plan.test.ts:
 * windows of 6 s, deadlines of 12 s. A 3-hour summary, then five short
 * questions about a 5-minute video 2 s (0.2 s here) later.
 */
const SCALE = 10;
const WINDOW_MS = 60_000 / SCALE;
const FREE = { tokensPerWindow: 6_000, requestsPerWindow: 30, windowMs: WINDOW_MS };
const SCALED = { LLM_BUDGET_WINDOW_MS: String(WINDOW_MS), REQUEST_TIMEOUT_MS: String(120_000 / SCALE), ANSWER_CACHE_TTL_MS: "0" };
const TOPICS = ["battery", "keyboard", "screen", "camera", "price"];

let h: LlmHarness | undefined;
const extra: RunningService[] = [];
afterEach(async () => {
  await Promise.all(extra.splice(0).map((s) => s.stop()));
  await h?.close();
  h = undefined;
});

interface Timed {
  status: number;
  ms: number;
  response: Response;
}

async function timed(request: Promise<Response>): Promise<Timed> {
  const started = performance.now();
  const response = await request;
  await response.clone().arrayBuffer();
  return { status: response.status, ms: performance.now() - started, response };
}

/**
 * The earliest the provider's window could have served each question: the
 * level left when they arrived (from what it charged before), refilling, the
 * questions' calls going first in the order of their sizes.
 *
 * @returns floors in ms from the questions' arrival, k-th smallest first
 */
function floors(h: LlmHarness, arrivedAt: number, questionCharges: number[]): number[] {
  let level = FREE.tokensPerWindow;
  let at = h.llm.limits!.charges[0]?.at ?? arrivedAt;
  for (const charge of h.llm.limits!.charges.filter((c) => c.at < arrivedAt)) {
    level = Math.min(FREE.tokensPerWindow, level + ((charge.at - at) * FREE.tokensPerWindow) / WINDOW_MS) - charge.tokens;
    at = charge.at;
  }
  level = Math.min(FREE.tokensPerWindow, level + ((arrivedAt - at) * FREE.tokensPerWindow) / WINDOW_MS);
  let needed = 0;
  return [...questionCharges].sort((a, b) => a - b).map((tokens) => {
    needed += tokens;
    return Math.max(0, ((needed - level) * WINDOW_MS) / FREE.tokensPerWindow);
  });
}

async function mixed(summaryAt: RunningService, questionsAt: RunningService) {
  const chat = (service: RunningService, body: unknown) => postChat(service.url, body, { "x-api-key": API_KEY });
  const summary = timed(chat(summaryAt, { url: watchUrl("normal") }));
  await Bun.sleep(2_000 / SCALE);
  const arrivedAt = performance.now();
  const questions = await Promise.all(TOPICS.map((topic) => timed(chat(questionsAt, { url: watchUrl("twoTracks"), language: "en", prompt: `What does the reviewer say about the ${topic}?` }))));
  return { summary: await summary, questions, arrivedAt };
}

async function expectFair(h: LlmHarness, run: Awaited<ReturnType<typeof mixed>>, questionsAt: RunningService) {
  console.log(questionsAt.output().split("\n").filter((l) => l.includes("DEBUG")).join("\n"));
  for (const q of run.questions) if (q.status !== 200) console.log("DEBUG", Math.round(q.ms), await q.response.clone().text());
  expect(run.questions.map((q) => q.status)).toEqual([200, 200, 200, 200, 200]);
  const questionCalls = h.llm.calls.filter((c) => !c.refused && c.text.includes("What does the reviewer say"));
  const charges = questionCalls.map((call) => h.llm.limits!.charges.find((c) => Math.abs(c.at - call.startedAt) < 50)?.tokens ?? 0);
  expect(questionCalls).toHaveLength(5);
  const floor = floors(h, run.arrivedAt, charges);
  const latencies = run.questions.map((q) => q.ms).sort((a, b) => a - b);
  for (const [k, ms] of latencies.entries()) expect({ k, ms: Math.round(ms), within: ms <= 1.5 * floor[k]! + 5_000 / SCALE }).toEqual({ k, ms: Math.round(ms), within: true });
  expect(run.summary.status).toBe(200);
  expect(run.summary.ms).toBeLessThan(120_000 / SCALE);
  const t0 = h.llm.calls[0]!.startedAt;
  console.log("DEBUGCALLS", h.llm.calls.map((c) => `${Math.round(c.startedAt - t0)}:${c.refused ?? "ok"}:${c.text.includes("What does") ? "Q" : "S"}`).join(" "), JSON.stringify(h.llm.limits!.charges.map((c) => [Math.round(c.at - t0), c.tokens])));
  expect(h.llm.calls.filter((c) => c.refused).map((c) => c.refused)).toEqual([]);
  console.log(questionsAt.output().split("\n").filter((l) => l.includes("DEBUG")).join("\n"));
}

describe("a long summary and short questions on the free plan (time scaled by 10)", () => {
  test("five short questions 2 s after a 3-hour summary are all served near their floor, and the summary is a 200 in time", async () => {
    h = await startLlmHarness(SCALED, { limits: FREE });
    h.youtube.setCaption(VIDEOS.normal.id, captionXml(generateCues(3 * 3600)));
    h.youtube.setCaption(VIDEOS.twoTracks.id, captionXml(generateCues(5 * 60)));
    const run = await mixed(h.service, h.service);
    await expectFair(h, run, h.service);
    const [line] = await requestLogLines(h.service, run.summary.response);
    expect(line!.coverage).toBeGreaterThan(0);
    expect(line!.budget_wait_ms).toBeNumber();
  });
});
