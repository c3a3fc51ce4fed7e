/** @module End-to-end tests of whole-video requests on Groq's free plan, time-scaled: read as `summary` is. */
import { afterEach, beforeAll, describe, expect, test } from "bun:test";
import { besidesSearch, isSearchCall, type LlmCall } from "../support/fake/llm.ts";
import { gptOss20bFreePlan } from "../support/fake/provider-limits.ts";
import { VIDEOS, watchUrl } from "../support/fixtures.ts";
import { captionXml, generateCues, NEEDLE } from "../support/long-transcript.ts";
import { type LogLine, requestLogLines } from "../support/request-log-lines.ts";
import { targetFromEnv } from "../support/service/process.ts";
import { DETAIL_PROMPTS, WHOLE_PROMPTS } from "../support/whole-video-prompts.ts";
import { type LlmHarness, startLlmHarness } from "./llm-harness.ts";

/**
 * Groq's free plan for openai/gpt-oss-20b (8,000 tokens and 30 requests a
 * minute, the service's default model) played ten times faster, as in llm-free-plan.test.ts: windows of
 * 6 s, a 12 s deadline. A 30-minute video (a generated review, a topic every
 * ten minutes, a planted sentence at minute 20). Every request runs on a
 * fresh service and a fresh fake LLM, so each starts from a full bucket, as
 * the baseline `summary` does.
 */
const WINDOW_MS = 6_000;
const FREE = gptOss20bFreePlan(WINDOW_MS);
const SCALED = { TEST_LLM_BUDGET_WINDOW_MS: String(WINDOW_MS), REQUEST_TIMEOUT_MS: "12000", ANSWER_CACHE_TTL_MS: "0" };
const MINUTES = 30;
const cues = generateCues(MINUTES * 60, { needleAt: 20 * 60 });
const NOTES = "- [0:00] The reviewer covers one aspect of the device.\n- [0:40] And how well it holds up.";
const isPart = (call: LlmCall) => /Part \d+ of \d+ of a long video's transcript/.test(call.text);

let h: LlmHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

interface Asked {
  status: number;
  output: string;
  line: LogLine;
  timing: string;
  /** The calls the fake LLM answered, in the order they arrived. */
  sent: LlmCall[];
}

/** One request on a fresh service; `answer` replaces the fake's final answer (notes stay notes). */
async function ask(body: Record<string, unknown>, answer?: string): Promise<Asked> {
  h = await startLlmHarness(SCALED, { limits: FREE, model: "default" });
  h.youtube.setCaption(VIDEOS.normal.id, captionXml(cues));
  if (answer !== undefined) h.llm.respondWith(besidesSearch((call) => ({ content: isPart(call) ? NOTES : answer })));
  const response = await h.chat({ url: watchUrl("normal"), ...body });
  const json = await response.json();
  const [line] = await requestLogLines(h.service, response);
  return {
    status: response.status,
    output: json.output ?? JSON.stringify(json),
    line: line!,
    timing: response.headers.get("server-timing") ?? "",
    sent: h.llm.calls.filter((c) => !c.refused),
  };
}

/** Seconds of every transcript line that reached the model (each line opens with its timestamp). */
function secondsRead(calls: readonly LlmCall[]): number[] {
  return calls.flatMap((call) =>
    [...call.text.matchAll(/<transcript>\n([\s\S]*?)\n<\/transcript>/g)].flatMap((block) =>
      [...block[1]!.matchAll(/^\[(\d+):(\d\d)\]/gm)].map((m) => Number(m[1]) * 60 + Number(m[2]))
    )
  );
}

let summary: Asked;
beforeAll(async () => {
  summary = await ask({});
  await h?.close();
  h = undefined;
});

describe(`whole-video requests on Groq's free plan, a ${MINUTES}-minute video (${targetFromEnv()})`, () => {
  test("`summary` is read whole, as before, and says so: intent summary", () => {
    expect(summary.status).toBe(200);
    expect(summary.line).toMatchObject({ intent: "summary" });
    expect(summary.line.coverage).toBeGreaterThan(0.99);
    expect(summary.timing).toContain("intent;desc=summary, plan;desc=");
    // Its prompts are as before: in one call, or combining notes on the parts.
    expect(summary.sent.at(-1)!.text).toMatch(
      /Summarise the video( from them)?: its main points in order, concisely\./,
    );
  });

  for (const { prompt, language } of WHOLE_PROMPTS) {
    test(`"${prompt}" (${language}) is read at the coverage summary gets, both ends and every tenth, in its own words`, async () => {
      const asked = await ask({ prompt, language });
      expect(asked.status).toBe(200);
      expect(asked.line).toMatchObject({ intent: "whole" });
      expect(asked.timing).toContain("intent;desc=whole, plan;desc=");
      expect(asked.line.coverage as number).toBeGreaterThanOrEqual(0.9 * (summary.line.coverage as number));
      expect(asked.sent.some((c) => c.text.includes(cues[0]!.text))).toBe(true);
      expect(asked.sent.some((c) => c.text.includes(cues.at(-1)!.text))).toBe(true);
      const read = secondsRead(asked.sent);
      const tenths = new Set(read.map((s) => Math.floor(s / (MINUTES * 6))));
      expect([...tenths].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
      expect(asked.sent.at(-1)!.text).toContain(`<request>${prompt}</request>`);
    });
  }

  test("chapters come back with their timestamps checked like every [m:ss]: moments of the video kept, invented ones dropped", async () => {
    const chapters = "[0:00] Battery\n[10:00] Keyboard\n[20:00] Screen\n[29:56] Verdict\n[45:00] Bonus";
    const asked = await ask({ prompt: "Make chapters with timestamps", language: "en" }, chapters);
    expect(asked.status).toBe(200);
    expect(asked.output).toStartWith("[0:00] Battery\n[10:00] Keyboard\n[20:00] Screen\n[29:56] Verdict\n");
    expect(asked.output).not.toContain("[45:00]");
  });

  for (const { prompt, language } of DETAIL_PROMPTS) {
    test(`a detail question, "${prompt}" (${language}), still finds its passage with excerpts, in one cheap call`, async () => {
      const asked = await ask({ prompt, language });
      expect(asked.status).toBe(200);
      expect(asked.line).toMatchObject({ intent: "detail", plan: "excerpts+terms" });
      expect(asked.timing).toContain("intent;desc=detail, plan;desc=excerpts+terms");
      // The small search call, then the answer's one call.
      expect(asked.sent).toHaveLength(2);
      expect(isSearchCall(asked.sent[0]!)).toBe(true);
      expect(asked.sent[1]!.text).toContain(NEEDLE);
      expect(asked.line.coverage as number).toBeLessThan(0.15);
    });
  }
});
