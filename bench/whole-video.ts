/** @module Benchmark of how summary, whole-video and detail prompts are read on a free Groq key, before and after. */
/**
 * Benchmark (issue 32): 30-minute and 1-hour videos on a free Groq key, end
 * to end through the real service, asked `summary`, whole-video requests in
 * people's words, and a detail question. The fake LLM enforces the free
 * plan of openai/gpt-oss-20b, the service's default model (8,000 tokens and
 * 30 requests a minute, prompt plus max_tokens charged), reasons as gpt-oss
 * does, and answers in 300 ms plus the output at 500 tokens/s. Every request gets a fresh service and a fresh fake LLM (a
 * full bucket), as a new user's first request would; every setting is at its
 * default but the endpoints.
 *
 * Per request it prints the status, wall time, plan, intent and coverage from
 * the request log, and what the fake saw: the tenths of the timeline whose
 * lines reached the model and whether both ends did. Then each row's coverage
 * and wall time as a ratio of `summary`'s on the same video in the same run.
 *
 * Run: bun bench/whole-video.ts [--minutes=30,60] [--scale=1] [--before=/path/to/tree]
 *   --scale: plays the provider's window, the deadline and the latency that
 *   many times faster (10 checks the script in a minute); --before: a
 *   checkout to compare with (its own node_modules), run first, same rows.
 *   About 5 minutes per tree at --scale=1, 1 at --scale=10. Loopback only.
 */
import { ANSWERS, type LlmCall, requestedLanguage, startFakeLlm } from "../tests/support/fake/llm.ts";
import { startFakeYoutube } from "../tests/support/fake/youtube.ts";
import { VIDEOS, watchUrl } from "../tests/support/fixtures.ts";
import { captionXml, generateCues, type GeneratedCue } from "../tests/support/long-transcript.ts";
import { gptOss20bFreePlan } from "../tests/support/fake/provider-limits.ts";
import { requestLogLines } from "../tests/support/request-log-lines.ts";
import { startService } from "../tests/support/service/process.ts";
import { startTree } from "./support/trees.ts";

const args = new Map(process.argv.slice(2).map((arg) => arg.replace(/^--/, "").split("=") as [string, string]));
const SCALE = Number(args.get("scale") ?? 1);
const BEFORE = args.get("before");
const MINUTES = (args.get("minutes") ?? "30,60").split(",").map(Number);
const WINDOW_MS = 60_000 / SCALE;
const PLAN = gptOss20bFreePlan(WINDOW_MS);
const KEY = "bench-key-0123456789";
const PROMPTS: { kind: "summary" | "whole" | "detail"; prompt: string; language: string }[] = [
  { kind: "summary", prompt: "summary", language: "en" },
  // The issue's own examples, then two of the e2e set (written apart from the corpus).
  { kind: "whole", prompt: "Summarize this video", language: "en" },
  { kind: "whole", prompt: "What are the key takeaways?", language: "en" },
  { kind: "whole", prompt: "Resume este video", language: "es" },
  { kind: "whole", prompt: "Give me a five-bullet summary I can paste into Slack", language: "en" },
  { kind: "whole", prompt: "इस वीडियो की मुख्य बातें पाँच पॉइंट में लिखो", language: "hi" },
  { kind: "detail", prompt: "What is the secret ingredient of the recipe?", language: "en" },
];
const NOTES = "- [0:00] The reviewer covers one more aspect of the device and how it holds up in daily use.";

interface Row {
  tree: string;
  minutes: number;
  kind: string;
  prompt: string;
  status: number;
  wallMs: number;
  plan: string;
  intent: string;
  coverage: number | undefined;
  tenths: number;
  ends: boolean;
  calls: number;
}

/** What of the timeline reached the model: tenths with at least one line, and whether the first and last cues did. */
function seen(calls: readonly LlmCall[], cues: readonly GeneratedCue[]): { tenths: number; ends: boolean } {
  const span = cues.at(-1)!.start + cues.at(-1)!.duration;
  const tenths = new Set<number>();
  for (const call of calls) {
    for (const block of call.text.matchAll(/<transcript>\n([\s\S]*?)\n<\/transcript>/g)) {
      for (const m of block[1]!.matchAll(/^\[(?:(\d+):)?(\d+):(\d\d)\]/gm)) {
        const seconds = Number(m[1] ?? 0) * 3600 + Number(m[2]) * 60 + Number(m[3]);
        tenths.add(Math.min(9, Math.floor((seconds / span) * 10)));
      }
    }
  }
  const text = calls.map((c) => c.text).join("\n");
  return { tenths: tenths.size, ends: text.includes(cues[0]!.text) && text.includes(cues.at(-1)!.text) };
}

async function measure(tree: string, minutes: number, ask: (typeof PROMPTS)[number]): Promise<Row> {
  const cues = generateCues(minutes * 60, { needleAt: Math.floor((minutes * 60 * 2) / 3) });
  youtube.setCaption(VIDEOS.normal.id, captionXml(cues));
  const llm = startFakeLlm({ limits: PLAN });
  llm.respondWith((call) => {
    const notes = /Part \d+ of \d+ of a long video's transcript/.test(call.text);
    // The answer in the language asked, so that no rewrite call is needed.
    const content = notes ? NOTES : ANSWERS[requestedLanguage(call)] ?? ANSWERS.en!;
    return { content, delayMs: (300 + (content.length / 4 / 500) * 1000) / SCALE };
  });
  const env = {
    API_KEYS: KEY,
    YOUTUBE_BASE_URL: youtube.origin,
    GROQ_API_KEY: "gsk_bench",
    GROQ_BASE_URL: llm.baseUrl,
    HOST: "127.0.0.1",
    LOG_FORMAT: "json",
    ...(SCALE === 1
      ? {}
      : { TEST_LLM_BUDGET_WINDOW_MS: String(WINDOW_MS), REQUEST_TIMEOUT_MS: String(Math.round(120_000 / SCALE)) }),
  };
  const service = tree === "after" ? await startService(env) : await startTree(tree, env);
  try {
    const started = performance.now();
    const response = await fetch(`${service.url}/chat`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": KEY },
      body: JSON.stringify({ url: watchUrl("normal"), prompt: ask.prompt, language: ask.language }),
      signal: AbortSignal.timeout(180_000 / SCALE),
    });
    await response.text();
    const wallMs = performance.now() - started;
    const log = (await requestLogLines(service, response))[0] ?? {};
    const sent = llm.calls.filter((c) => !c.refused);
    return {
      tree: tree === "after" ? "after" : "before",
      minutes,
      kind: ask.kind,
      prompt: ask.prompt,
      status: response.status,
      wallMs,
      plan: String(log.plan ?? "—"),
      intent: String(log.intent ?? "—"),
      coverage: typeof log.coverage === "number" ? log.coverage : undefined,
      calls: sent.length,
      ...seen(sent, cues),
    };
  } finally {
    await service.stop();
    await llm.close();
  }
}

function print(row: Row, baseline: Row | undefined): void {
  const ratio = (a: number | undefined, b: number | undefined) =>
    a === undefined || b === undefined || b === 0 ? "—" : (a / b).toFixed(2);
  const cells = [
    row.tree,
    `${row.minutes} min`,
    row.kind,
    row.prompt,
    row.status,
    (row.wallMs / 1000).toFixed(1),
    row.plan,
    row.intent,
    row.coverage?.toFixed(3) ?? "—",
    `${row.tenths}/10`,
    row.ends ? "yes" : "no",
    row.calls,
    ratio(row.coverage, baseline?.coverage),
    ratio(row.wallMs, baseline?.wallMs),
  ];
  console.log(`| ${cells.join(" | ")} |`);
}

const youtube = startFakeYoutube();
console.log(
  `free plan of ${PLAN.model}: ${PLAN.tokensPerWindow} tokens and ${PLAN.requestsPerWindow} requests per ${
    WINDOW_MS / 1000
  } s (scale ${SCALE}); ` +
    "a fresh service and fake LLM per request; ratios against summary on the same video and tree",
);
console.log(
  "| Tree | Video | Kind | Prompt | HTTP | Wall s | Plan | Intent | Coverage | Tenths read | Both ends | Calls | " +
    "Coverage ÷ summary | Wall ÷ summary |",
);
console.log("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
try {
  for (const tree of BEFORE ? [BEFORE, "after"] : ["after"]) {
    for (const minutes of MINUTES) {
      let baseline: Row | undefined;
      for (const ask of PROMPTS) {
        const row = await measure(tree, minutes, ask);
        if (ask.kind === "summary") baseline = row;
        print(row, baseline);
      }
    }
  }
} finally {
  await youtube.close();
}
