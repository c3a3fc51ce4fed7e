/** @module Shapes the model's streamed text into final answer pieces: unwrapping, plain text, citations, language. */
import type { OutputFormat } from "../../../domain/chat-request.ts";
import type { Cue } from "../../../domain/transcript.ts";
import { checkCitations } from "./citations.ts";
import { MIN_DETECTOR_LETTERS } from "./language-check.ts";
import { looksLikeMarkdown, markdownToPlainText } from "./plain-text.ts";

export interface ShaperOptions {
  format: OutputFormat;
  cues: readonly Cue[];
  /** Judges the answer's first part (80 letters or more, or all of a shorter answer); none: nothing is held back. */
  isWrongLanguage?: (text: string) => Promise<boolean>;
  /** Receives each piece of the answer that may go out. */
  emit?: (text: string) => void;
}

const OPENING_FENCE = /^```(?:markdown|md|text)?[ \t]*$/i;
const CLOSING_FENCE = /^```[ \t]*$/;
const CLOSING_TAG = /<\/answer>\s*$/i;
const LETTER = /\p{L}/gu;

/**
 * Turns the model's text, as it arrives, into the answer's pieces, each
 * final when it goes out (so a stream never takes text back):
 *
 * - a fence or `<answer>` tags wrapped around the whole answer are dropped
 *   (a closing one is held until the text ends, or goes out as it was);
 * - `markdown`: line by line; `text`: block by block (a paragraph, a list,
 *   a fenced block), each rendered to plain text when it carries Markdown;
 * - each piece's `[m:ss]` citations are checked against the transcript;
 * - nothing goes out until the language check can judge what came so far;
 *   a wrong answer is held whole (`wrong`), to be rewritten or released.
 *
 * `text` is what went out: the answer's final text.
 */
export class AnswerShaper {
  readonly #options: ShaperOptions;
  #partial = "";
  #started = false;
  #fenced = false;
  /** Blank and closing lines, kept until content follows them. */
  #pending: string[] = [];
  /** The `text` format's block being read, and whether it is inside a fence. */
  #block: string[] = [];
  #inFence = false;
  #judged: boolean;
  #held = "";
  #text = "";
  wrong = false;

  constructor(options: ShaperOptions) {
    this.#options = options;
    this.#judged = options.isWrongLanguage === undefined;
  }

  /** What went out so far. */
  get text(): string {
    return this.#text;
  }

  /** Takes the next piece of the model's text. */
  async push(piece: string): Promise<void> {
    const lines = (this.#partial + piece).split("\n");
    this.#partial = lines.pop()!;
    for (const line of lines) await this.#line(line);
  }

  /** The model's text has ended: what was held back is judged and sent (unless wrong). */
  async end(): Promise<void> {
    if (this.#partial !== "") await this.#line(this.#partial);
    this.#partial = "";
    const closing = this.#pending.filter((line) => line.trim() !== "");
    const last = closing.at(-1);
    if (last !== undefined && !(this.#fenced && CLOSING_FENCE.test(last))) {
      const kept = last.replace(CLOSING_TAG, "");
      if (kept.trim() !== "") await this.#content(kept);
    }
    this.#pending = [];
    if (this.#block.length > 0) await this.#unit(this.#renderBlock(), "\n\n");
    this.#block = [];
    if (!this.#judged) await this.#judge();
  }

  /** Sends what was held back for a wrong language (when no rewrite came). */
  release(): void {
    this.wrong = false;
    this.#judged = true;
    this.#send(this.#held);
    this.#held = "";
  }

  async #line(raw: string): Promise<void> {
    let line = raw;
    if (!this.#started) {
      line = line.replace(/^\s*<answer>\s*/i, "");
      if (line.trim() === "") return;
      if (OPENING_FENCE.test(line.trim())) {
        this.#fenced = true;
        this.#started = true;
        return;
      }
      this.#started = true;
    }
    const closing = (this.#fenced && CLOSING_FENCE.test(line)) || CLOSING_TAG.test(line);
    // In `text`, a blank line ends a block at once (unless a closing line waits): the block may go out.
    if (line.trim() === "" && this.#options.format === "text" && this.#pending.length === 0) {
      return await this.#blockLine(line);
    }
    if (line.trim() === "" || closing) {
      this.#pending.push(line);
      return;
    }
    await this.#content(line);
  }

  /** A content line, after the blank or closing lines before it. */
  async #content(line: string): Promise<void> {
    const before = this.#pending;
    this.#pending = [];
    if (this.#options.format === "markdown") {
      const gap = before.length === 0 ? "\n" : `\n${before.join("\n")}\n`;
      const first = this.#text === "" && this.#held === "";
      return await this.#unit(checkCitations(first ? line.trimStart() : line, this.#options.cues), gap);
    }
    for (const pending of before) await this.#blockLine(pending);
    await this.#blockLine(line);
  }

  async #blockLine(line: string): Promise<void> {
    if (/^ {0,3}(```|~~~)/.test(line)) this.#inFence = !this.#inFence;
    if (line.trim() === "" && !this.#inFence) {
      if (this.#block.length > 0) await this.#unit(this.#renderBlock(), "\n\n");
      this.#block = [];
      return;
    }
    this.#block.push(line);
  }

  #renderBlock(): string {
    const block = this.#block.join("\n");
    const plain = looksLikeMarkdown(block) ? markdownToPlainText(block) : block.trim();
    return checkCitations(plain, this.#options.cues);
  }

  /** One finished piece: held until the language is judged, then sent. */
  async #unit(unit: string, gap: string): Promise<void> {
    const trimmed = this.#options.format === "markdown" ? unit.trimEnd() : unit;
    if (trimmed.trim() === "") return;
    const piece = (this.#text === "" && this.#held === "" ? "" : gap) + trimmed;
    if (this.#judged && !this.wrong) return this.#send(piece);
    this.#held += piece;
    if (!this.#judged && (this.#held.match(LETTER)?.length ?? 0) >= MIN_DETECTOR_LETTERS) await this.#judge();
  }

  async #judge(): Promise<void> {
    this.#judged = true;
    if (this.#held === "") return;
    this.wrong = await this.#options.isWrongLanguage!(this.#held);
    if (!this.wrong) this.release();
  }

  #send(piece: string): void {
    if (piece === "") return;
    this.#text += piece;
    this.#options.emit?.(piece);
  }
}
