/** @module Compares language detectors and thresholds for the language check on the labelled corpus. */
/**
 * Which detector and threshold tell English, Spanish and Portuguese apart in
 * the language check: every candidate runs behind the check's script stage
 * (`scriptVerdict`) over the labelled corpus in tests/adapters/llm/shaping/language-corpus/,
 * and the table gives, per detector and rule, the check's precision and
 * recall on answers of 80 letters or more, the plainly wrong answers it
 * misses, its false alarms, the same on 30–79 letters (were the detector
 * trusted there), the first load and the time per Latin-script check.
 *
 *   bun bench/language-detectors.ts [--misses]
 *
 * A rule `r` flags an answer when the detector's best guess is another
 * language and the wanted one scores below r × the best score (r = 1: any
 * other best guess).
 */
import { MIN_DETECTOR_LETTERS, scriptVerdict } from "../src/adapters/llm/shaping/language-check.ts";
import { type Case, corpusCases, letterCount } from "../tests/adapters/llm/shaping/language-corpus/corpus.ts";

/** Scores for the candidate languages, best first, by two-letter code. */
type Scorer = (latin: string) => [string, number][];
interface Detector {
  name: string;
  load: () => Promise<Scorer>;
}

const CANDIDATES = ["en", "es", "pt", "fr", "it", "de", "nl", "ca", "ro", "pl", "tr", "id"];
const ISO3: Record<string, string> = {
  en: "eng",
  es: "spa",
  pt: "por",
  fr: "fra",
  it: "ita",
  de: "deu",
  nl: "nld",
  ca: "cat",
  ro: "ron",
  pl: "pol",
  tr: "tur",
  id: "ind",
};
const ISO1 = Object.fromEntries(Object.entries(ISO3).map(([k, v]) => [v, k]));
const RATIOS = [0.8, 0.9, 0.95, 0.97, 0.99, 1];

/** franc's API (franc and franc-min): scores relative to the best, among the candidates. */
function francScorer(francAll: (text: string, options: object) => [string, number][]): Scorer {
  const only = CANDIDATES.map((c) => ISO3[c]!);
  return (latin) => francAll(latin, { only, minLength: 1 }).map(([code, score]) => [ISO1[code] ?? code, score]);
}

const DETECTORS: Detector[] = [
  { name: "franc-min 6.2", load: async () => francScorer((await import("franc-min")).francAll) },
  { name: "franc 6.2", load: async () => francScorer((await import("franc")).francAll) },
  ...(["extrasmall", "small"] as const).map((size) => ({
    name: `eld 2.1 ${size}`,
    load: async () => {
      const { eld } = size === "small" ? await import("eld/small") : await import("eld/extrasmall");
      eld.setLanguageSubset(CANDIDATES);
      return (latin: string) => Object.entries(eld.detect(latin).getScores()).sort((a, b) => b[1] - a[1]);
    },
  })),
  ...(["light", "normal"] as const).map((size) => ({
    name: `tinyld 1.3 ${size}`,
    load: async () => {
      const { detectAll } = size === "light" ? await import("tinyld/light") : await import("tinyld");
      return (latin: string) =>
        detectAll(latin, { only: CANDIDATES }).map(({ lang, accuracy }) => [lang, accuracy] as [string, number]);
    },
  })),
];

/** Whether the rule flags the scores for the wanted language. */
function flags(scores: [string, number][], wanted: string, ratio: number): boolean {
  const best = scores[0];
  if (!best || best[0] === wanted || best[1] <= 0) return false;
  const score = scores.find(([code]) => code === wanted)?.[1] ?? 0;
  return ratio === 1 || score < ratio * best[1];
}

interface Tally {
  tp: number;
  fp: number;
  fn: number;
  misses: string[];
}

/** The check's verdicts with this scorer under each ratio, split into ≥ 80 and 30–79 letters. */
function measure(cases: Case[], score: Scorer): Map<number, { long: Tally; short: Tally }> {
  const out = new Map(RATIOS.map((r) => [r, { long: tally(), short: tally() }]));
  for (const c of cases) {
    const letters = letterCount(c.text);
    if (letters < 30) continue;
    const long = letters >= 80;
    // For 30–79 letters the detector is run as well, to see whether it could be trusted there.
    const verdict = scriptVerdict(c.text, c.asked, long ? MIN_DETECTOR_LETTERS : 30);
    const scores = typeof verdict === "string" ? score(verdict) : [];
    for (const [ratio, t] of out) {
      const flagged = typeof verdict === "boolean" ? verdict : flags(scores, c.asked, ratio);
      const bucket = long ? t.long : t.short;
      if (flagged && c.wrong) bucket.tp++;
      else if (flagged) {
        bucket.fp++;
        bucket.misses.push(`false alarm (${c.written} asked ${c.asked}): ${oneLine(c.text)}`);
      } else if (c.wrong) {
        bucket.fn++;
        bucket.misses.push(`missed (${c.written} asked ${c.asked}): ${oneLine(c.text)}`);
      }
    }
  }
  return out;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").slice(0, 70);
}

function tally(): Tally {
  return { tp: 0, fp: 0, fn: 0, misses: [] };
}

const pct = (n: number, d: number) => (d === 0 ? "–" : `${((100 * n) / d).toFixed(1)} %`);

async function main(): Promise<void> {
  const cases = corpusCases();
  const latinChecks = cases.filter((c) => typeof scriptVerdict(c.text, c.asked) === "string").length;
  console.log(
    `corpus: ${cases.length} judgements (${
      cases.filter((c) => c.wrong).length
    } wrong), ${latinChecks} reach the detector\n`,
  );
  console.log(
    "| detector | rule r | precision ≥80 | recall ≥80 | missed ≥80 | false alarms ≥80 | missed 30–79 | false alarms 30–79 | first load | per check |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|---|");
  for (const detector of DETECTORS) {
    const start = performance.now();
    const scorer = await detector.load();
    let calls = 0;
    const score: Scorer = (latin) => (calls++, scorer(latin));
    const loadMs = performance.now() - start;
    const t0 = performance.now();
    const results = measure(cases, score);
    const perCheck = ((performance.now() - t0) * 1000) / calls;
    for (const [ratio, { long, short }] of results) {
      console.log(
        `| ${detector.name} | ${ratio} | ${pct(long.tp, long.tp + long.fp)} | ${
          pct(long.tp, long.tp + long.fn)
        } | ${long.fn} | ${long.fp} | ${short.fn} | ${short.fp} | ${loadMs.toFixed(0)} ms | ${
          perCheck.toFixed(0)
        } µs |`,
      );
      if (process.argv.includes("--misses")) {
        for (
          const line of [
            ...long.misses,
            ...short.misses.map((m) => `(short) ${m}`),
          ]
        ) console.log(`    ${line}`);
      }
    }
  }
}

await main();
