/** @module The chat request: accepted model, languages and formats, defaults, prompt cut and summary detection. */
import { AppError } from "./errors.ts";
import { type Language, LANGUAGES } from "./languages/languages.ts";
import { parseVideoId } from "./video-id.ts";

export { type Language, LANGUAGES };

/** The only model identifier the service accepts: the API's version, whatever model writes the answers. */
export const MODEL_ID = "chat-1.0";
export const OUTPUT_FORMATS = ["text", "markdown"] as const;
export const DEFAULT_PROMPT = "summary";
/** Longer prompts are cut, not rejected. Counted in code points. */
export const PROMPT_MAX_CODE_POINTS = 500;

export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** A request body after schema validation: every field but `url` may be absent. */
export interface ChatInput {
  url: string;
  model?: string;
  prompt?: string;
  language?: Language;
  output_format?: OutputFormat;
}

/** A request with every rule applied; what the use case works on (never changed: one may serve many callers). */
export interface ChatRequest {
  readonly url: string;
  readonly videoId: string;
  readonly model: typeof MODEL_ID;
  readonly prompt: string;
  readonly isSummary: boolean;
  readonly language: Language;
  readonly outputFormat: OutputFormat;
  /** Requests that must get the same answer share this key: the answer cache's and the shared work's. */
  readonly answerKey: string;
}

/**
 * Applies the defaults, the prompt cut and summary detection.
 *
 * @param input a schema-valid request body
 * @returns the request to process
 * @throws {AppError} `invalid_request` when `url` is not a YouTube video URL
 */
export function createChatRequest(input: ChatInput): ChatRequest {
  const videoId = requireVideoId(input.url);
  const prompt = normalizePrompt(input.prompt);
  const isSummary = isSummaryPrompt(prompt);
  const language = input.language ?? "en";
  const outputFormat = input.output_format ?? "text";
  return {
    url: input.url,
    videoId,
    model: MODEL_ID,
    prompt,
    isSummary,
    language,
    outputFormat,
    answerKey: answerKey(videoId, language, outputFormat, isSummary ? "summary" : prompt),
  };
}

function answerKey(videoId: string, language: Language, outputFormat: OutputFormat, ask: string): string {
  // `v2`: answers keep the video's seconds. Answers of the previous version (its wording only) are never read, in a
  // shared cache or from another instance's work during an upgrade: each is written again once, in seconds.
  return `v2:${JSON.stringify([videoId, language, outputFormat, ask])}`;
}

/**
 * @param url the `url` field as sent
 * @returns its video id
 * @throws {AppError} `invalid_request` when `url` is not a YouTube video URL
 */
export function requireVideoId(url: string): string {
  const videoId = parseVideoId(url);
  if (videoId) return videoId;
  throw new AppError(
    "invalid_request",
    'Field "url" must be a YouTube video URL such as https://www.youtube.com/watch?v=VIDEO_ID or ' +
      `https://youtu.be/VIDEO_ID: got ${quote(url)}`,
  );
}

/**
 * Cuts a prompt to its first 500 code points (never splitting a surrogate
 * pair); a missing, empty or blank prompt becomes `summary`.
 */
export function normalizePrompt(prompt: string | undefined): string {
  if (prompt === undefined || prompt.trim() === "") return DEFAULT_PROMPT;
  const codePoints = Array.from(prompt);
  if (codePoints.length <= PROMPT_MAX_CODE_POINTS) return prompt;
  return codePoints.slice(0, PROMPT_MAX_CODE_POINTS).join("");
}

/** A prompt asks for a summary when it is `summary` after trimming, in any case. */
export function isSummaryPrompt(prompt: string): boolean {
  return prompt.trim().toLowerCase() === DEFAULT_PROMPT;
}

/** Quotes a caller's value for an error message, shortened so messages stay readable. */
export function quote(value: string, max = 80): string {
  const points = Array.from(value);
  const shown = points.length > max ? `${points.slice(0, max).join("")}…` : value;
  return JSON.stringify(shown);
}
