/** @module Measures the CPU a summary's plan takes on a long transcript, against parsing that transcript. */
/**
 * Every request plans alone (see `Reservation.plan`): while one plans, the
 * others wait, so a plan's CPU time is a queue's time. This measures, in
 * process, the steps a summary's plan runs on a transcript that does not fit
 * the budget (the whole transcript's lines and tokens for the one-call check,
 * then the coarse lines condensed to fit), on the first plan of a transcript
 * and on a plan made again (a replan, or the next plan on the same
 * transcript), which reads the lines and scores kept with the transcript
 * (see `TranscriptLines`). The baseline is parsing the same transcript's caption XML, which
 * every request that reads captions does once.
 *
 *   bun bench/planning-cpu.ts [--runs 30]      (or: deno run -A bench/planning-cpu.ts)
 */
import { parseArgs } from "node:util";
import { parseTimedText } from "../src/adapters/youtube/timedtext.ts";
import { linesTokens, planSummary } from "../src/adapters/llm/planning/costs.ts";
import { createTranscriptLines, type TranscriptLines } from "../src/domain/reading/transcript-lines.ts";
import { estimateTokens } from "../src/domain/reading/tokens.ts";
import { captionXml, generateCues } from "../tests/support/long-transcript.ts";
import { median } from "../tests/support/rss.ts";

const { values: args } = parseArgs({ options: { runs: { type: "string", default: "30" } } });
const RUNS = Number(args.runs);

/** Fixed costs of a reasoning model's calls, about what the prompts cost; a free plan's minute of 8,000 tokens. */
const COSTS = { answerPrompt: 420, notesPrompt: 330, combinePrompt: 310, output: 1000, notes: 320, reasoning: 512 };
const LIMITS = { maxCallTokens: 8_000, available: 6_000 };

/** A plan as the writer makes it: on the transcript's lines, kept with their scores for the next plan. */
function plan(transcript: TranscriptLines): string {
  linesTokens(transcript.lines(), estimateTokens);
  return planSummary(transcript.lines("coarse"), COSTS, LIMITS, estimateTokens, () => transcript.scores("coarse"))
    .shape;
}

const linesOf = (xml: string) => createTranscriptLines(parseTimedText(xml)!);

/** @returns the median time of `work` over RUNS runs, each on its own input made by `prepare` */
function timed<T>(prepare: () => T, work: (input: T) => unknown): number {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const input = prepare();
    const started = performance.now();
    work(input);
    times.push(performance.now() - started);
  }
  return median(times);
}

const runtime = typeof Deno !== "undefined" ? "deno" : "bun";
console.log(`planning-cpu (${runtime}), median of ${RUNS} runs`);
console.log("video | parse XML (baseline) | first plan | ratio | plan again | ratio | plan shape");
for (const hours of [1, 3]) {
  const xml = captionXml(generateCues(hours * 3600));
  const parse = timed(() => xml, (body) => parseTimedText(body));
  const first = timed(() => linesOf(xml), plan);
  const again = timed(() => {
    const transcript = linesOf(xml);
    plan(transcript);
    return transcript;
  }, plan);
  const shape = plan(linesOf(xml));
  const ms = (value: number) => `${value.toFixed(2)} ms`;
  console.log(
    `${hours} h | ${ms(parse)} | ${ms(first)} | ${(first / parse).toFixed(2)} | ${ms(again)} | ${
      (again / parse).toFixed(2)
    } | ${shape}`,
  );
}

declare const Deno: unknown;
