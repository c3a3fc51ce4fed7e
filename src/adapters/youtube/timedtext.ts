/** @module Parses YouTube caption tracks (classic and srv3 formats) into cleaned cues. */
import { AppError } from "../../domain/errors.ts";
import type { Cue } from "../../domain/transcript.ts";
import { unreadable } from "./unreadable.ts";

const TEXT_ELEMENT = /<text\b([^>]*)>([\s\S]*?)<\/text>|<text\b([^>]*)\/>/g;
const SRV3_PARAGRAPH = /<p\b([^>]*)>([\s\S]*?)<\/p>/g;

/** The caption formats YouTube serves: classic (seconds) and srv3 (milliseconds). */
export type CaptionFormat = "classic" | "srv3";

/**
 * @param body a caption track body
 * @returns its format, or undefined when it is not a whole caption document
 *   (empty, HTML, or cut off before its closing tag)
 */
export function captionFormat(body: string): CaptionFormat | undefined {
  if (/<transcript\b/.test(body)) return /<\/transcript>\s*$|<transcript\s*\/>/.test(body) ? "classic" : undefined;
  if (/<timedtext\b/.test(body)) return /<\/timedtext>\s*$|<timedtext\b[^>]*\/>/.test(body) ? "srv3" : undefined;
  return undefined;
}

/**
 * Parses a caption track body into cues with times in seconds. Reads the
 * classic format (`<text start dur>`, seconds) and, should YouTube send it
 * anyway, srv3 (`<p t d>`, milliseconds). Empty cues are dropped.
 *
 * @param body a caption track body
 * @returns the cues (possibly none), or undefined when the body is not a whole caption document
 */
export function parseTimedText(body: string): Cue[] | undefined {
  const format = captionFormat(body);
  if (format === "classic") return collect(body, TEXT_ELEMENT, "start", "dur", 1);
  if (format === "srv3") return collect(body, SRV3_PARAGRAPH, "t", "d", 1000);
  return undefined;
}

function collect(body: string, element: RegExp, startName: string, durName: string, perSecond: number): Cue[] {
  const cues: Cue[] = [];
  for (const match of body.matchAll(element)) {
    const attributes = match[1] ?? match[3] ?? "";
    const text = cleanText(match[2] ?? "");
    const start = Number(attribute(attributes, startName)) / perSecond;
    const duration = Number(attribute(attributes, durName) ?? 0) / perSecond;
    if (text === "" || !Number.isFinite(start)) continue;
    cues.push({ start, duration: Number.isFinite(duration) ? duration : 0, text });
  }
  return cues;
}

function attribute(attributes: string, name: string): string | undefined {
  return new RegExp(`\\b${name}="([^"]*)"`).exec(attributes)?.[1];
}

/**
 * Decodes entities (twice: YouTube escapes the markup inside cues), drops tags, folds spaces.
 *
 * @param raw a cue's text as it stands in the document
 * @returns the plain text, possibly empty
 */
export function cleanText(raw: string): string {
  const once = decodeEntities(raw.replace(/<[^>]*>/g, ""));
  return decodeEntities(once.replace(/<[^>]*>/g, "")).replace(/\s+/g, " ").trim();
}

const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED[name.toLowerCase()] ?? whole;
  });
}

/**
 * @param body a caption track as YouTube sent it
 * @returns its cues
 * @throws {AppError} upstream_error when the track is not a whole timedtext document, or empty
 */
export function readCaptions(body: string, videoId: string): Cue[] {
  const cues = parseTimedText(body);
  if (cues === undefined && body.trim() !== "") throw unreadable("a caption track", "not a whole timedtext document");
  if (!cues || cues.length === 0) {
    throw new AppError("upstream_error", `YouTube sent an empty caption track for video ${videoId}; try again later`);
  }
  return cues;
}
