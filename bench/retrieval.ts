/** @module Benchmark of finding a detail's moment in a two-hour documentary, asked in many words and languages. */
/**
 * Benchmark (issue 47): the retrieval corpus (`tests/fixtures/retrieval/`), 40 topics of 3 minutes with one
 * planted fact each, played by the fake YouTube in English with YouTube's translations into es, pt, ru and hi. Each
 * fact is asked in each set of `ASK_SETS`: English in the transcript's words and in other words, each other
 * language's native question with `language` set to it, and with the default `language` (en).
 *
 * Through the real service (`bun run server` of this tree, and of `--before` when given), at its defaults on the
 * free plan of openai/gpt-oss-20b: the fake LLM enforces its 8,000 tokens and 30 requests a minute (no daily cap:
 * the bench measures the minute's room), played `--scale` times faster, and answers in 300 ms plus its output at
 * 500 tokens a second, scaled alike. It plays a competent model where the service asks it to understand: a search
 * call gets the corpus's guess for that question in the track's language (`competentSearchReply`), written from the
 * question alone; every other call gets a fixed answer in the language asked.
 *
 * Per set and tree it prints: found (the fact's sentence, in the track's language, was in what the model was sent
 * for the answer), the mean prompt tokens a question (every call, counted as the fake's tokenizer does), the time a
 * question on the free plan's room (two ways, below), and the plans the request log named. Then the offline engine's
 * found (the fact quoted in its answer), with no goal.
 *
 * The free plan's floor: the tokens the fake provider counted for a question's calls (prompt plus `max_tokens`, as
 * Groq counts a call against its minute) ÷ 8,000 tokens a minute: the seconds a question takes when questions come
 * back to back. It is exact and does not move with the machine's load.
 *
 * The measured time is each question's median, back to back, in real seconds: what the scale shortened (the calls' waits for the
 * budget, `budget_wait_ms` of the request log, and the fake model's time to answer) times the scale, plus the rest of
 * the wall time (the service's own work, real already). Scaling the whole wall time would multiply the service's own
 * milliseconds by the scale too.
 *
 * Run: bun bench/retrieval.ts [--scale=60] [--before=/path/to/tree] [--topics=40] [--sets=all|0,1,...]
 * Loopback only; each set is 40 requests at most.
 */
import { ANSWERS, type LlmCall, requestedLanguage, startFakeLlm } from "../tests/support/fake/llm.ts";
import { startFakeYoutube } from "../tests/support/fake/youtube.ts";
import { llamaPromptTokens } from "../tests/support/fake/provider-limits.ts";
import { gptOss20bFreePlan } from "../tests/support/fake/provider-limits.ts";
import { VIDEOS, watchUrl } from "../tests/support/fixtures.ts";
import { captionXml } from "../tests/support/long-transcript.ts";
import { requestLogLines } from "../tests/support/request-log-lines.ts";
import { type RunningService, startService } from "../tests/support/service/process.ts";
import {
  ASK_SETS,
  type AskSet,
  competentSearchReply,
  CORPUS,
  documentaryCues,
  type Topic,
} from "../tests/support/retrieval-corpus.ts";
import { startTree } from "./support/trees.ts";
import type { Language } from "../src/domain/chat-request.ts";

const args = new Map(process.argv.slice(2).map((arg) => arg.replace(/^--/, "").split("=") as [string, string]));
const SCALE = Number(args.get("scale") ?? 60);
const BEFORE = args.get("before");
const TOPICS = CORPUS.topics.slice(0, Number(args.get("topics") ?? CORPUS.topics.length));
const SETS = args.get("sets") && args.get("sets") !== "all"
  ? args.get("sets")!.split(",").map((i) => ASK_SETS[Number(i)]!)
  : ASK_SETS;
const WINDOW_MS = 60_000 / SCALE;
const KEY = "bench-key-0123456789";
const LANGUAGES: Language[] = ["en", "es", "pt", "ru", "hi"];

interface Row {
  tree: string;
  set: string;
  found: number;
  asked: number;
  tokens: number;
  secondsEach: number;
  /** The median question's seconds: one question read over the whole video (a misread intent) weighs in the mean. */
  secondsMedian: number;
  /**
   * The free plan's floor, in seconds a question back to back: the tokens the provider counted for it (prompt plus
   * `max_tokens`, as Groq counts a call against the minute) ÷ 8,000 a minute. It does not move with the machine's load.
   */
  floorSeconds: number;
  plans: string;
  failures: number;
}

const youtube = startFakeYoutube();
const corpus = { ...CORPUS, topics: TOPICS };
for (const language of LANGUAGES) {
  const body = captionXml(documentaryCues(language, corpus));
  if (language === "en") youtube.setCaption(VIDEOS.normal.id, body);
  youtube.setCaption(VIDEOS.normal.id, body, language);
}

function serviceEnv(llmUrl?: string): Record<string, string> {
  return {
    API_KEYS: KEY,
    YOUTUBE_BASE_URL: youtube.origin,
    HOST: "127.0.0.1",
    LOG_FORMAT: "json",
    ...(llmUrl ? { GROQ_API_KEY: "gsk_bench", GROQ_BASE_URL: llmUrl } : {}),
    TEST_LLM_BUDGET_WINDOW_MS: String(WINDOW_MS),
    REQUEST_TIMEOUT_MS: String(Math.round(120_000 / Math.min(SCALE, 10))),
  };
}

function start(tree: string, env: Record<string, string>): Promise<RunningService> {
  return tree === "after" ? startService(env) : startTree(tree, env);
}

async function ask(service: RunningService, set: AskSet, topic: Topic): Promise<{ response: Response; body: string }> {
  const response = await fetch(`${service.url}/chat`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": KEY },
    body: JSON.stringify({ url: watchUrl("normal"), prompt: set.question(topic), language: set.language }),
    signal: AbortSignal.timeout(300_000),
  });
  return { response, body: await response.text() };
}

/** The set's questions back to back on one service and one fresh fake LLM (a full bucket, as a new day's first). */
async function measureSet(tree: string, set: AskSet): Promise<Row> {
  const llm = startFakeLlm({ limits: { ...gptOss20bFreePlan(WINDOW_MS), tokensPerDay: undefined } });
  llm.respondWith((call) => {
    const content = competentSearchReply(call, corpus) ?? ANSWERS[requestedLanguage(call)] ?? ANSWERS.en!;
    return { content, delayMs: (300 + (content.length / 4 / 500) * 1000) / SCALE };
  });
  const service = await start(tree, serviceEnv(llm.baseUrl));
  const plans = new Map<string, number>();
  let found = 0;
  let failures = 0;
  let tokens = 0;
  let charged = 0;
  const realMs: number[] = [];
  try {
    for (const topic of TOPICS) {
      const before = llm.calls.length;
      const started = performance.now();
      const { response } = await ask(service, set, topic);
      const wallMs = performance.now() - started;
      const asked = llm.calls.slice(before);
      const calls: LlmCall[] = asked.filter((c) => !c.refused);
      if (response.status !== 200) failures++;
      tokens += calls.reduce((sum, call) => sum + llamaPromptTokens(call.messages), 0);
      charged += calls.reduce((sum, call) => sum + (call.charged ?? 0), 0);
      const fact = topic.fact[set.language];
      if (
        calls.some((call) =>
          !/\nSearch terms in [^\n]*:$/.test(call.messages.at(-1)!.content) && call.text.includes(fact)
        )
      ) found++;
      const line = (await requestLogLines(service, response))[0] ?? {};
      const plan = String(line.plan ?? `HTTP ${response.status}`);
      plans.set(plan, (plans.get(plan) ?? 0) + 1);
      const scaledMs = Number(line.budget_wait_ms ?? 0) +
        asked.reduce((sum, call) => sum + ((call.answeredAt ?? call.startedAt) - call.startedAt), 0);
      realMs.push(Math.max(0, wallMs - scaledMs) + scaledMs * SCALE);
    }
    return {
      tree,
      set: set.name,
      found,
      asked: TOPICS.length,
      tokens: tokens / TOPICS.length,
      secondsEach: realMs.reduce((a, b) => a + b, 0) / TOPICS.length / 1000,
      secondsMedian: median(realMs) / 1000,
      floorSeconds: (charged / TOPICS.length / 8_000) * 60,
      plans: [...plans].map(([plan, n]) => `${plan} ${n}`).join(", "),
      failures,
    };
  } finally {
    await service.stop();
    await llm.close();
  }
}

/** The offline engine on the same sets: found when its answer quotes the fact. */
async function measureOffline(tree: string, set: AskSet): Promise<Row> {
  const service = await start(tree, serviceEnv());
  let found = 0;
  let failures = 0;
  try {
    const started = performance.now();
    for (const topic of TOPICS) {
      const { response, body } = await ask(service, set, topic);
      if (response.status !== 200) failures++;
      const output = response.status === 200 ? String(JSON.parse(body).output) : "";
      if (output.includes(topic.fact[set.language].replace(/[.!?।]+$/u, ""))) found++;
    }
    const wall = performance.now() - started;
    return {
      tree,
      set: set.name,
      found,
      asked: TOPICS.length,
      tokens: 0,
      secondsEach: wall / TOPICS.length / 1000,
      secondsMedian: wall / TOPICS.length / 1000,
      floorSeconds: 0,
      plans: "offline",
      failures,
    };
  } finally {
    await service.stop();
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

function print(row: Row, baseline?: Row): void {
  const ratio = (a: number, b?: number) => (b ? (a / b).toFixed(2) : "—");
  const cells = [
    row.tree,
    row.set,
    `${row.found}/${row.asked}`,
    row.tokens.toFixed(0),
    ratio(row.tokens, baseline?.tokens),
    row.floorSeconds.toFixed(1),
    ratio(row.floorSeconds, baseline?.floorSeconds),
    row.secondsMedian.toFixed(1),
    ratio(row.secondsMedian, baseline?.secondsMedian),
    row.failures,
    row.plans,
  ];
  console.log(`| ${cells.join(" | ")} |`);
}

const trees = BEFORE ? [BEFORE, "after"] : ["after"];
console.log(
  `retrieval corpus: ${TOPICS.length} topics of 3 minutes, ${SETS.length} sets; free plan of openai/gpt-oss-20b ` +
    `(8,000 tokens and 30 requests a minute) played ${SCALE} times faster; competent fake model (see the module doc)`,
);
console.log(
  "| Tree | Set | Found | Prompt tokens a question | ÷ before | Free plan's floor, s a question | ÷ before | " +
    "Measured s a question (median) | ÷ before | Non-200 | Plans |",
);
console.log("|---|---|---|---|---|---|---|---|---|---|---|");
try {
  const byTree = new Map<string, Row[]>();
  for (const tree of trees) {
    const rows: Row[] = [];
    for (const set of SETS) {
      const row = await measureSet(tree, set);
      rows.push(row);
      print({ ...row, tree: tree === "after" ? "after" : "before" }, byTree.get(trees[0]!)?.[rows.length - 1]);
    }
    byTree.set(tree, rows);
  }
  console.log("\nThe offline engine (no model; found = the fact quoted in its answer; no goal):");
  console.log("| Tree | Set | Found | — | — | — | — | Measured s a question (mean) | — | Non-200 | — |");
  console.log("|---|---|---|---|---|---|---|---|---|---|---|");
  for (const set of SETS) print({ ...(await measureOffline("after", set)), tree: "after" });
} finally {
  await youtube.close();
}
