/** @module Benchmark of long-video summaries on a free Groq key, in real time, through the real service. */
/**
 * Benchmark (issue 13): summaries of 30-minute, 1-hour and 3-hour videos on a
 * free Groq key, in real time, end to end through the real service. The fake
 * LLM enforces openai/gpt-oss-20b's free plan (8,000 tokens and 30 requests
 * per minute, a real 60 s window, prompt + max_tokens charged per call; 200,000
 * tokens and 1,000 requests a day), reasons as gpt-oss does, and
 * answers like Groq: 300 ms plus the output at 500 tokens/s. Every service
 * setting is at its default (REQUEST_TIMEOUT_MS 120 s...) but GROQ_API_KEY,
 * GROQ_BASE_URL and YOUTUBE_BASE_URL. Each video gets a fresh service and a
 * fresh fake LLM, so the provider's bucket starts full.
 *
 * Per run it prints the status, the wall time, the calls the fake took and
 * refused, the plan and coverage, the tokens charged, and the floor: the least
 * time the provider's limit allows to read what was charged,
 * max(0, charged − tokens in the bucket at the start) / 8000 × 60 s, plus the
 * latency of the last call as measured at the fake. Loopback only; about
 * 3.5 minutes, 8 with --refilled (mostly waiting for the provider's window).
 *
 * Run: bun bench/free-tier.ts [minutes,...] [--refilled] | --day
 *   minutes: which videos (default 30,60,180); --refilled: a warm run for
 *   every video, after waiting until the provider's bucket is full again
 *   (up to a minute each), so that it compares with the cold run.
 *   --day: the free plan's day played 60 times faster (see `servedInADay`):
 *   answers served to the first refusal on one model and on a chain of two,
 *   for questions and for one-hour summaries (about 3 minutes in all).
 */
import llama3Tokenizer from "llama3-tokenizer-js";
import { type FakeLlm, type LlmCall, type Responder, startFakeLlm } from "../tests/support/fake/llm.ts";
import { startFakeYoutube } from "../tests/support/fake/youtube.ts";
import { type VideoName, VIDEOS, watchUrl } from "../tests/support/fixtures.ts";
import { captionXml, generateCues, type GeneratedCue } from "../tests/support/long-transcript.ts";
import { type Charge, gptOss20bFreePlan } from "../tests/support/fake/provider-limits.ts";
import { requestLogLines } from "../tests/support/request-log-lines.ts";
import { type RunningService, startService } from "../tests/support/service/process.ts";
import { CHAIN, type DayRun, question, servedInADay, summary as summaryAsk } from "./support/day-scaled.ts";

const LIMITS = gptOss20bFreePlan(60_000);
/** Groq-like latency: a fixed time to first token, then the output at a steady rate. */
const FIRST_TOKEN_MS = 300;
const OUTPUT_TOKENS_PER_S = 500;
/** The client gives up a little after the service's own 120 s deadline, so a hang shows as a row, not a stuck bench. */
const CLIENT_TIMEOUT_MS = 150_000;
const KEY = "bench-key-0123456789";

// Notes about as long as the map prompt allows (110 words, 145 tokens); a summary of 224 words (280 tokens).
const NOTES = Array.from(
  { length: 5 },
  (_, i) =>
    `- [${
      i * 4
    }:00] The reviewer covers one more aspect of the device, how it holds up in daily use, and what it costs.`,
).join("\n");
const SUMMARY = Array.from(
  { length: 8 },
  (_, i) =>
    `The reviewer then turns to another part of the tablet [${
      i * 4
    }:00], compares it with last year's model, and says whether it is worth the money for most people.`,
).join("\n");

const llamaTokens = (text: string) => llama3Tokenizer.encode(text, { bos: false, eos: false }).length;
const isNotes = (call: LlmCall) =>
  /Part \d+ of \d+ of a long video's transcript|Merge them into shorter notes/.test(call.text);

/** One measured `POST /chat`. */
interface Row {
  label: string;
  /** Llama 3 tokens of the video's spoken text, timestamps not counted. */
  videoTokens: number;
  status: number;
  errorCode?: string;
  wallMs: number;
  answered: number;
  refused413: number;
  refused429: number;
  plan: string;
  coverage: string;
  charged: number;
  lastCallMs: number;
  floorMs: number;
}

/** Answers notes or a summary after a Groq-like delay, recording when each call ended (at the fake). */
function groqLike(ends: Map<LlmCall, number>): Responder {
  return async (call) => {
    const content = isNotes(call) ? NOTES : SUMMARY;
    const completionTokens = llamaTokens(content);
    await Bun.sleep(FIRST_TOKEN_MS + (completionTokens / OUTPUT_TOKENS_PER_S) * 1000);
    ends.set(call, performance.now());
    return { content, completionTokens };
  };
}

/** Tokens in the provider's bucket at `at`, replaying its charges from a full bucket. */
function bucketLevel(charges: readonly Charge[], at: number): number {
  const rate = LIMITS.tokensPerWindow / LIMITS.windowMs;
  let level = LIMITS.tokensPerWindow;
  let time = charges[0]?.at ?? at;
  for (const charge of charges.filter((c) => c.at <= at)) {
    level = Math.min(LIMITS.tokensPerWindow, level + (charge.at - time) * rate) - charge.tokens;
    time = charge.at;
  }
  return Math.min(LIMITS.tokensPerWindow, level + (at - time) * rate);
}

/**
 * Share of the video's sentences that reached the model, read at the fake:
 * the distinct transcript lines of the calls it answered (a line is sent
 * whole, with its own timestamp), their sentences over the video's.
 */
function coverageAtFake(calls: readonly LlmCall[], sentences: number): number {
  const lines = new Set<string>();
  for (const call of calls.filter((c) => !c.refused)) {
    for (const block of call.text.matchAll(/<transcript>\n([\s\S]*?)\n<\/transcript>/g)) {
      for (const line of block[1]!.split("\n")) {
        if (line.startsWith("[")) lines.add(line);
      }
    }
  }
  const read = [...lines].reduce((sum, line) => sum + (line.match(/[.!?](?=\s|$)/g)?.length ?? 0), 0);
  return read / sentences;
}

/** The plan as the fake saw it: one call, or map-reduce with its parts; `condensed` when less than the whole was read. */
function planAtFake(calls: readonly LlmCall[], coverage: number): string {
  const parts = /Part \d+ of (\d+) of a long video's transcript/.exec(
    calls.find((c) => !c.refused && isNotes(c))?.text ?? "",
  )?.[1];
  const shape = parts ? `map-reduce (${parts} parts)` : "one-call";
  return coverage < 0.999 ? `condensed+${shape}` : shape;
}

/** @returns the latency, at the fake, of the answered call that ended last (0 when none was answered) */
function lastCallLatency(answered: readonly LlmCall[], ends: ReadonlyMap<LlmCall, number>): number {
  const last = answered.reduce<LlmCall | undefined>(
    (latest, c) => (!latest || ends.get(c)! > ends.get(latest)! ? c : latest),
    undefined,
  );
  return last ? ends.get(last)! - last.startedAt : 0;
}

/** A service and its fake LLM, with when each call the fake answered ended. */
interface Setup {
  service: RunningService;
  llm: FakeLlm;
  ends: Map<LlmCall, number>;
}

/** Sends one summary request and reads what the service and the fake LLM saw of it. */
async function summary(
  label: string,
  { service, llm, ends }: Setup,
  video: VideoName,
  cues: readonly GeneratedCue[],
): Promise<Row> {
  const firstCall = llm.calls.length;
  const firstCharge = llm.limits!.charges.length;
  const started = performance.now();
  const level = bucketLevel(llm.limits!.charges, started);
  const response = await fetch(`${service.url}/chat`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": KEY },
    body: JSON.stringify({ url: watchUrl(video) }),
    signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
  });
  await response.text();
  const wallMs = performance.now() - started;
  const log = (await requestLogLines(service, response))[0] ?? {};
  const calls = llm.calls.slice(firstCall);
  const charged = llm.limits!.charges.slice(firstCharge).reduce((sum, c) => sum + c.tokens, 0);
  const answered = calls.filter((c) => ends.has(c));
  const lastCallMs = lastCallLatency(answered, ends);
  const coverage = coverageAtFake(calls, cues.length);
  return {
    label,
    videoTokens: llamaTokens(cues.map((cue) => cue.text).join(" ")),
    status: response.status,
    errorCode: typeof log.error_code === "string" ? log.error_code : undefined,
    wallMs,
    answered: answered.length,
    refused413: calls.filter((c) => c.refused === 413).length,
    refused429: calls.filter((c) => c.refused === 429).length,
    plan: typeof log.plan === "string" ? log.plan : `${planAtFake(calls, coverage)}*`,
    coverage: typeof log.coverage === "number" ? log.coverage.toFixed(2) : `${coverage.toFixed(2)}*`,
    charged,
    lastCallMs,
    floorMs: (Math.max(0, charged - level) / LIMITS.tokensPerWindow) * LIMITS.windowMs + lastCallMs,
  };
}

/** @returns ms until the provider's bucket is full again */
function msUntilFull(charges: readonly Charge[]): number {
  const missing = LIMITS.tokensPerWindow - bucketLevel(charges, performance.now());
  return Math.ceil((missing * LIMITS.windowMs) / LIMITS.tokensPerWindow);
}

/**
 * A fresh fake LLM and service for one video. `warm` adds a second summary
 * of the same length on the same process (its token counts calibrated by
 * the first), `right-after` it or once the provider's bucket is full again.
 */
async function video(label: string, minutes: number, warm: "no" | "right-after" | "refilled"): Promise<Row[]> {
  const cues = generateCues(minutes * 60);
  youtube.setCaption(VIDEOS.normal.id, captionXml(cues));
  youtube.setCaption(VIDEOS.twoTracks.id, captionXml(cues));
  const llm = startFakeLlm({ limits: LIMITS });
  const ends = new Map<LlmCall, number>();
  llm.respondWith(groqLike(ends));
  const service = await startService({
    API_KEYS: KEY,
    YOUTUBE_BASE_URL: youtube.origin,
    GROQ_API_KEY: "gsk_bench",
    GROQ_BASE_URL: llm.baseUrl,
  });
  try {
    const setup = { service, llm, ends };
    const rows = [await summary(label, setup, "normal", cues)];
    if (warm === "refilled") await Bun.sleep(msUntilFull(llm.limits!.charges));
    // Another video id: the first answer is cached. Right after, the bucket is not full; the floor counts what is left in it.
    if (warm !== "no") {
      rows.push(
        await summary(
          `${label}, warm (same process, ${warm === "refilled" ? "bucket refilled" : "right after"})`,
          setup,
          "twoTracks",
          cues,
        ),
      );
    }
    return rows;
  } finally {
    await service.stop();
    await llm.close();
  }
}

function print(row: Row): void {
  const seconds = (ms: number) => (ms / 1000).toFixed(1);
  const status = row.errorCode ? `${row.status} ${row.errorCode}` : String(row.status);
  const ratio = row.floorMs > 0 ? (row.wallMs / row.floorMs).toFixed(2) : "—";
  const cells = [
    row.label,
    row.videoTokens.toLocaleString("en"),
    status,
    seconds(row.wallMs),
    row.answered,
    `${row.refused413} / ${row.refused429}`,
    row.plan,
    row.coverage,
    row.charged.toLocaleString("en"),
    Math.round(row.lastCallMs),
    seconds(row.floorMs),
    ratio,
  ];
  console.log(`| ${cells.join(" | ")} |`);
}

/** The day-scaled run: each kind of request on one model, then on the chain, to the first refusal. */
async function dayRuns(): Promise<void> {
  console.log(
    `a day of gpt-oss-20b's and gpt-oss-120b's free plans (each model 200,000 tokens and 1,000 requests a day) ` +
      `played 60 times faster (a 1 s minute, a 4 s deadline); requests one after another until the first refusal`,
  );
  console.log(
    "| Requests | Models | Answers | By model | Ended with | Share of the day | Tokens charged | × one model |",
  );
  console.log("|---|---|---|---|---|---|---|---|");
  const kinds = [["questions, 30-minute video", 30, question], ["summaries, one-hour video", 60, summaryAsk]] as const;
  for (const [label, minutes, ask] of kinds) {
    youtube.setCaption(VIDEOS.normal.id, captionXml(generateCues(minutes * 60)));
    const one = await servedInADay(youtube, label, CHAIN.slice(0, 1), ask);
    const two = await servedInADay(youtube, label, CHAIN, ask);
    for (const run of [one, two]) printDay(run, Object.keys(run === one ? [0] : [0, 1]).length, one.answers);
  }
}

function printDay(run: DayRun, models: number, baseline: number): void {
  const byModel = Object.entries(run.byModel).map(([model, count]) => `${model} ${count}`).join(", ");
  const cells = [
    run.label,
    models,
    run.answers,
    byModel,
    run.endedWith,
    run.dayShare.toFixed(3),
    run.tokensCharged.toLocaleString("en"),
    (run.answers / baseline).toFixed(2),
  ];
  console.log(`| ${cells.join(" | ")} |`);
}

const youtube = startFakeYoutube();
if (process.argv.includes("--day")) {
  try {
    await dayRuns();
  } finally {
    await youtube.close();
  }
  process.exit(0);
}
console.log(
  `free tier of openai/gpt-oss-20b: ${LIMITS.tokensPerWindow} tokens and ${LIMITS.requestsPerWindow} requests per ${
    LIMITS.windowMs / 1000
  } s; fake LLM latency ${FIRST_TOKEN_MS} ms + output at ${OUTPUT_TOKENS_PER_S} tokens/s; service defaults (REQUEST_TIMEOUT_MS 120 s)`,
);
console.log(
  "| Summary | Video tokens | HTTP | Wall s | Calls answered | Refused 413 / 429 | Plan | Coverage | Tokens charged | Last call ms | Floor s | Wall / floor |",
);
console.log("|---|---|---|---|---|---|---|---|---|---|---|---|");
try {
  let readAtFake = false;
  const args = process.argv.slice(2);
  const refilled = args.includes("--refilled");
  const only = args.find((arg) => !arg.startsWith("--"))?.split(",").map(Number);
  for (const [label, minutes] of [["30 minutes", 30], ["1 hour", 60], ["3 hours", 180]] as const) {
    if (only && !only.includes(minutes)) continue;
    for (const row of await video(label, minutes, refilled ? "refilled" : minutes === 30 ? "right-after" : "no")) {
      print(row);
      readAtFake ||= row.plan.endsWith("*");
    }
  }
  if (readAtFake) {
    console.log(
      "* read at the fake LLM (the request log has no plan or coverage field): coverage = sentences of the transcript that reached the model ÷ sentences spoken",
    );
  }
} finally {
  await youtube.close();
}
