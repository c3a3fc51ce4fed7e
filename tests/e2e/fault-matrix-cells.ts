/** @module The cells of the fault matrix: each upstream times each fault, with expected outcomes and limits. */
import { truncatedTranscript } from "../support/caption-bodies.ts";
import { ANSWERS } from "../support/fake/llm.ts";
import type { Endpoint, Fault } from "../support/fake/youtube.ts";
import type { YoutubeRig } from "../support/service/youtube.ts";

/** The limits the matrix's service runs with: low, so every cell ends fast. */
export const LIMITS = {
  YOUTUBE_TIMEOUT_MS: 800,
  LLM_TIMEOUT_MS: 800,
  LLM_MAX_RETRIES: 2,
  LLM_RETRY_BUDGET_MS: 1000,
} as const;
/** Room for the rest of the request (loopback calls, start of the answer pipeline) on a busy 2-core machine. */
const SLACK_MS = 1500;
/** 20 MB of padding: far past any real player response, watch page, caption track or completion. */
export const OVERSIZED_BYTES = 20 * 1024 * 1024;
/** A trickle that would take this long: five times the time limits. */
const TRICKLE_MS = 4000;

export type Upstream = Endpoint | "llm";
export const UPSTREAMS: readonly Upstream[] = ["player", "watch", "caption", "llm"];
export const FAULTS = [
  "connection refused",
  "reset mid-body",
  "slow trickle",
  "timeout (hang)",
  "429, no retry-after",
  "429, retry-after short",
  "429, retry-after long",
  "5xx",
  "malformed body",
  "empty body",
  "oversized body",
] as const;
export type FaultName = (typeof FAULTS)[number];

/** One cell: a fault on one upstream call, and what POST /chat must answer. */
export interface Cell {
  upstream: Upstream;
  fault: FaultName;
  arrange(rig: YoutubeRig): void | Promise<void>;
  status: number;
  code: string;
  /** Exact `Retry-After`; null when none may be sent; undefined when either is fine. */
  retryAfter?: string | null;
  minMs?: number;
  maxMs: number;
  /** Text the error message must contain. */
  message?: string;
  /** Calls the fake LLM must have received, inclusive bounds. */
  llmCalls?: [number, number];
}

/** A cell that cannot be reached separately, and why. */
export interface Unreachable {
  upstream: Upstream;
  fault: FaultName;
  why: string;
}

const YT_CALL_MS = LIMITS.YOUTUBE_TIMEOUT_MS + SLACK_MS;
const LLM_CALL_MS = LIMITS.LLM_TIMEOUT_MS + SLACK_MS;
const LLM_RETRIES_MS = LIMITS.LLM_RETRY_BUDGET_MS + (LIMITS.LLM_MAX_RETRIES + 1) * 100 + SLACK_MS;
const FAST_MS = SLACK_MS;

/** The watch page is only fetched when no key-less player answer can be read (a bot check switches routes instead). */
function onYoutube(endpoint: Endpoint, fault: Fault): (rig: YoutubeRig) => void {
  return (rig) => {
    if (endpoint === "watch") rig.youtube.setPlayerGate({ garbleKeyless: true });
    rig.youtube.setFault(endpoint, fault);
  };
}

const MALFORMED: Record<Endpoint, string> = {
  player: '{"playabilityStatus":{"status":"OK"},"videoDetails":{"videoId":',
  watch: "<!DOCTYPE html><html><head><title>YouTube</title><script>var ytcfg = {",
  caption: truncatedTranscript(),
};

function youtubeCells(endpoint: Endpoint, status5xx: number): Cell[] {
  const timeout = {
    status: 504,
    code: "upstream_timeout",
    retryAfter: null,
    minMs: LIMITS.YOUTUBE_TIMEOUT_MS - 50,
    maxMs: YT_CALL_MS,
  };
  const blocked = { status: 503, code: "upstream_blocked", maxMs: FAST_MS };
  const broken = { status: 502, code: "upstream_error", retryAfter: null, maxMs: FAST_MS };
  const at = (fault: FaultName, play: Fault, expected: Omit<Cell, "upstream" | "fault" | "arrange">): Cell => ({
    upstream: endpoint,
    fault,
    arrange: onYoutube(endpoint, play),
    ...expected,
  });
  // A watch page with no INNERTUBE_API_KEY leaves the unreadable player answers as the verdict (issue 21: a bot check no longer reaches it).
  const unusablePage = broken;
  return [
    at("reset mid-body", { kind: "reset" }, broken),
    at("slow trickle", { kind: "trickle", totalMs: TRICKLE_MS }, timeout),
    at("timeout (hang)", { kind: "hang" }, timeout),
    at("429, no retry-after", { kind: "status", status: 429 }, { ...blocked, retryAfter: "60" }),
    at("429, retry-after short", { kind: "status", status: 429, headers: { "retry-after": "2" } }, {
      ...blocked,
      retryAfter: "2",
    }),
    at("429, retry-after long", { kind: "status", status: 429, headers: { "retry-after": "3600" } }, {
      ...blocked,
      retryAfter: "3600",
    }),
    at("5xx", { kind: "status", status: status5xx, body: "<html>upstream failure</html>" }, broken),
    at("malformed body", {
      kind: "body",
      body: MALFORMED[endpoint],
      contentType: endpoint === "player" ? "application/json" : "text/html",
    }, unusablePage),
    at("empty body", { kind: "body", body: "" }, unusablePage),
    at("oversized body", { kind: "oversized", padBytes: OVERSIZED_BYTES }, {
      ...broken,
      maxMs: YT_CALL_MS,
      message: "larger than 10 MiB",
    }),
  ];
}

function llmCell(
  fault: FaultName,
  reply: Parameters<YoutubeRig["llm"]["respondWith"]>[0],
  expected: Omit<Cell, "upstream" | "fault" | "arrange">,
): Cell {
  return { upstream: "llm", fault, arrange: (rig) => rig.llm.respondWith(reply), ...expected };
}

function llmCells(): Cell[] {
  const broken = { status: 502, code: "upstream_error", retryAfter: null };
  const timeout = {
    status: 504,
    code: "upstream_timeout",
    retryAfter: null,
    minMs: LIMITS.LLM_TIMEOUT_MS - 50,
    maxMs: LLM_CALL_MS,
    llmCalls: [1, 1] as [number, number],
  };
  const retried = { maxMs: LLM_RETRIES_MS, llmCalls: [2, LIMITS.LLM_MAX_RETRIES + 1] as [number, number] };
  return [
    {
      upstream: "llm",
      fault: "connection refused",
      arrange: (rig) => rig.llm.refuseConnections(),
      ...broken,
      maxMs: LLM_RETRIES_MS,
    },
    llmCell("reset mid-body", () => ({ reset: true }), {
      ...broken,
      maxMs: LLM_RETRIES_MS,
      llmCalls: [1, LIMITS.LLM_MAX_RETRIES + 1],
    }),
    llmCell("slow trickle", () => ({ content: ANSWERS.en!, trickleMs: TRICKLE_MS }), timeout),
    llmCell("timeout (hang)", () => ({ hang: true }), timeout),
    llmCell("429, no retry-after", () => ({ status: 429 }), {
      status: 503,
      code: "upstream_blocked",
      retryAfter: null,
      ...retried,
    }),
    llmCell("429, retry-after short", () => ({ status: 429, headers: { "retry-after": "1" } }), {
      status: 503,
      code: "upstream_blocked",
      retryAfter: "1",
      minMs: 950,
      ...retried,
    }),
    // Longer than the request's deadline (120 s): not worth waiting, so refused at once.
    llmCell("429, retry-after long", () => ({ status: 429, headers: { "retry-after": "600" } }), {
      status: 503,
      code: "upstream_blocked",
      retryAfter: "600",
      maxMs: FAST_MS,
      llmCalls: [1, 1],
    }),
    llmCell("5xx", () => ({ status: 503 }), { ...broken, ...retried }),
    llmCell(
      "malformed body",
      () => ({ raw: '{"id":"chatcmpl-1","choices":[{"index":0,"message":{"role":"assistant","content":"The vid' }),
      { ...broken, maxMs: FAST_MS, llmCalls: [1, 1] },
    ),
    llmCell("empty body", () => ({ raw: "" }), { ...broken, maxMs: FAST_MS, llmCalls: [1, 1] }),
    llmCell("oversized body", () => ({ content: ANSWERS.en!, padBytes: OVERSIZED_BYTES }), {
      ...broken,
      maxMs: LLM_CALL_MS,
      llmCalls: [1, 1],
      message: "larger than 2 MiB",
    }),
  ];
}

/** Every reachable cell, YouTube's in call order, then the LLM's. */
export function cells(): Cell[] {
  const refused: Cell = {
    upstream: "player",
    fault: "connection refused",
    arrange: (rig) => rig.youtube.refuseConnections(),
    status: 502,
    code: "upstream_error",
    retryAfter: null,
    maxMs: FAST_MS,
  };
  return [
    refused,
    ...youtubeCells("player", 503),
    ...youtubeCells("watch", 500),
    ...youtubeCells("caption", 502),
    ...llmCells(),
  ];
}

export const UNREACHABLE: Unreachable[] = [
  {
    upstream: "watch",
    fault: "connection refused",
    why: "one YOUTUBE_BASE_URL origin for every YouTube call: a refused origin refuses the player call first",
  },
  { upstream: "caption", fault: "connection refused", why: "same origin as the player call, which is refused first" },
];
