/** @module Measures the longest event-loop stall of each reading and planning step on crafted worst-case transcripts. */
/**
 * An uploader writes their own captions, so a transcript can be built to make
 * reading it expensive. This builds the shapes of `tests/support/crafted-transcript.ts`
 * at the transcript cap (`TRANSCRIPT_CAP`), and times each synchronous step a request
 * runs on them (each step holds the event loop for its whole time): passages, lines and
 * chunks, BM25 excerpts, TextRank, near-duplicates, intent and a summary's plan. Figures
 * are the worst of `--runs` runs (after a warm-up on tenth-size transcripts), against parsing
 * the same caption XML (median), which every request that reads captions does once. Goal:
 * every step under 50 ms.
 *
 *   bun bench/crafted-transcripts.ts [--runs 5] [--tree DIR]
 *
 * `--tree DIR` times the steps of another checkout's `src/` (today's main, say) on the
 * same transcripts: `git archive main src | tar -x -C /tmp/main-tree`.
 */
import { parseArgs } from "node:util";
import { TRANSCRIPT_CAP } from "../src/domain/reading/transcript-cap.ts";
import { captionXml } from "../tests/support/long-transcript.ts";
import { CRAFTED_SHAPES, craftedCues } from "../tests/support/crafted-transcript.ts";
import { median } from "../tests/support/rss.ts";
import type { Cue } from "../src/domain/transcript.ts";

const { values: args } = parseArgs({
  options: { runs: { type: "string", default: "5" }, tree: { type: "string" }, only: { type: "string" } },
});
const RUNS = Number(args.runs);
const TREE = new URL(args.tree ? `file://${args.tree.replace(/\/$/, "")}/` : "../", import.meta.url);
const load = (path: string) => import(new URL(`src/${path}`, TREE).href);

const { parseTimedText } = await load("adapters/youtube/timedtext.ts");
const { groupPassages } = await load("domain/reading/passages.ts");
const { transcriptLines, chunkCues } = await load("domain/reading/chunking.ts");
const { selectExcerpts, carriedScores } = await load("domain/reading/relevance.ts");
const { centrality } = await load("domain/reading/textrank.ts");
const { terms } = await load("domain/reading/terms.ts");
const { distinctBest } = await load("domain/reading/near-duplicates.ts");
const { readIntent } = await load("domain/reading/intent.ts");
// planSummary moved from plan.ts to costs.ts in issue 43: either tree's.
const { planSummary } = {
  ...(await load("adapters/llm/planning/plan.ts")),
  ...(await load("adapters/llm/planning/costs.ts").catch(() => ({}))),
};

const COSTS = { answerPrompt: 420, notesPrompt: 330, combinePrompt: 310, output: 1000, notes: 320, reasoning: 512 };
const LIMITS = { maxCallTokens: 8_000, available: 6_000 };
const QUESTION = "what does qaaaab say about qaaaac, qaaaad and qaaaae compared with qaaaaf";
/** A prompt at its 500-character limit: 70 distinct words the shared-words transcript says all along. */
const LONG_PROMPT = Array.from(
  { length: 70 },
  (_, i) => `qaaa${String.fromCharCode(97 + Math.floor(i / 26))}${String.fromCharCode(97 + (i % 26))}`,
).join(" ");

/** Each step on fresh cues (steps remember what they made of a transcript by its identity). */
const STEPS: Record<string, (cues: Cue[]) => unknown> = {
  passages: (cues) => groupPassages(cues),
  "lines (fine + coarse)": (cues) => [transcriptLines(cues), transcriptLines(cues, "coarse")],
  "chunks (2,000 tokens)": (cues) => chunkCues(transcriptLines(cues, "coarse"), 2_000),
  "BM25 excerpts": (cues) => selectExcerpts(cues, QUESTION, 2_000),
  // As an LLM's detail ranks since issue 47: stemmed, with search words and a second reading (this tree's src only).
  ...(args.tree ? {} : {
    "BM25 excerpts, stemmed, with search words": (cues: Cue[]) =>
      selectExcerpts(
        cues,
        { question: QUESTION, language: "en", searchWords: `${QUESTION} qaaaag qaaaah words` },
        2_000,
      ),
    "second reading carried over (its own turn)": (cues: Cue[]) =>
      carriedScores(QUESTION, { cues, language: "en" }, cues),
  }),
  "TextRank (coarse lines)": (cues) => centrality(transcriptLines(cues, "coarse").map((l: Cue) => terms(l.text))),
  "TextRank (passages)": (cues) => centrality(groupPassages(cues).map((p: { text: string }) => terms(p.text))),
  "near-duplicates": (cues) => {
    const passages = groupPassages(cues).map((p: { text: string }) => terms(p.text));
    return distinctBest(passages.map((_: unknown, i: number) => i), (i: number) => passages[i], 10);
  },
  intent: (cues) => readIntent(QUESTION, cues),
  "intent (500-character prompt)": (cues) => readIntent(LONG_PROMPT, cues),
  "summary plan": (cues) => planSummary(transcriptLines(cues, "coarse"), COSTS, LIMITS),
};

const tree = args.tree ?? "this checkout";
console.log(`crafted-transcripts (${typeof Deno !== "undefined" ? "deno" : "bun"}), src of ${tree}`);
console.log(
  `cap: ${TRANSCRIPT_CAP.cues.toLocaleString("en")} cues, ${
    TRANSCRIPT_CAP.characters.toLocaleString("en")
  } characters; worst of ${RUNS} runs`,
);
// One run of every step on a tenth-size transcript of each shape first: the worst of the runs measured is then the
// data's, not the engine's first compilation of the code (which a fresh process pays once, on any transcript).
for (const shape of CRAFTED_SHAPES) {
  const small = craftedCues(shape, { cues: TRANSCRIPT_CAP.cues / 10, characters: TRANSCRIPT_CAP.characters / 10 });
  for (const step of Object.values(STEPS)) step(parseTimedText(captionXml(small)) as Cue[]);
}
let worst = 0;
for (const shape of CRAFTED_SHAPES) {
  if (args.only && !args.only.split(",").includes(shape)) continue;
  const xml = captionXml(craftedCues(shape, TRANSCRIPT_CAP));
  const parse = median(Array.from({ length: RUNS }, () => timed(() => parseTimedText(xml))));
  const count = (parseTimedText(xml) as Cue[]).length;
  console.log(`\n${shape}: ${count.toLocaleString("en")} cues; parse XML (baseline) ${parse.toFixed(1)} ms`);
  console.log("step | worst stall ms | ratio to parse");
  for (const [name, step] of Object.entries(STEPS)) {
    const times = Array.from({ length: RUNS }, () => {
      const cues = parseTimedText(xml) as Cue[];
      return timed(() => step(cues));
    });
    const stall = Math.max(...times);
    worst = Math.max(worst, stall);
    console.log(`${name} | ${stall.toFixed(1)} | ${(stall / parse).toFixed(2)}`);
  }
}
console.log(`\nworst stall of any step: ${worst.toFixed(1)} ms (goal under 50 ms)`);

function timed(work: () => unknown): number {
  const started = performance.now();
  work();
  return performance.now() - started;
}

declare const Deno: unknown;
