/** @module Reads a player answer's playability: blocks, a retired client, age gates and the video's own refusals. */
// deno-lint-ignore-file no-explicit-any -- reads JSON whose shape is checked field by field where it is used
import { AppError } from "../../domain/errors.ts";
import { retiredClient, speaksOfRetirement } from "./retired-client.ts";
import { unreadable } from "./unreadable.ts";

const BOT_CHECK = /confirm you(’|')re not a bot|unusual traffic/i;
/** The session (the address) is rate-limited for up to an hour: a block, not a refusal of the video. */
const TRY_AGAIN_LATER = /content isn(’|')t available, try again later/i;
const AGE_GATE = /inappropriate for some users|confirm your age|age-restricted/i;
const AGE_STATUSES = new Set(["AGE_VERIFICATION_REQUIRED", "AGE_CHECK_REQUIRED"]);

/**
 * Turns a player answer's refusal into the contract's error, in this order: what is about the address (a bot check, a
 * captcha, "try again later", an answer about another video: a block, so the caller moves to another route), what is
 * about the client identity (a reason or sub-reason asking for a newer app, or an OK that names no video: retired, so
 * another client is asked), then what is about the video (age gate, gone, other refusal).
 *
 * @param data the player answer, a JSON object
 * @param videoId the video asked about
 * @throws {AppError} unreadable when the answer has no playability status, else upstream_blocked, retired
 *   (upstream_error), video_age_restricted, video_unavailable or video_unplayable
 */
export function assertPlayable(data: Record<string, any>, videoId: string): void {
  const status = data.playabilityStatus;
  const state = status?.status;
  const reason = typeof status?.reason === "string"
    ? status.reason
    : runs(status?.errorScreen?.playerErrorMessageRenderer?.reason);
  const sub = subreasons(status);
  // An answer without a status is not one YouTube documents: another client, or strategy, may read the video.
  if (typeof state !== "string") throw unreadable("a player response", "no playabilityStatus.status");
  assertNotBlocked(status, reason, data, videoId);
  if (speaksOfRetirement(reason) || speaksOfRetirement(sub)) throw retiredClient(undefined, clean(`${reason} ${sub}`));
  if (state === "OK") {
    if (answeredVideoId(data) === undefined) throw retiredClient(undefined, "an OK answer that names no video");
    return;
  }
  if (AGE_STATUSES.has(state) || (state === "LOGIN_REQUIRED" && AGE_GATE.test(reason))) {
    throw new AppError(
      "video_age_restricted",
      `Video ${videoId} is age-restricted; YouTube only shows it to signed-in accounts, so its transcript cannot ` +
        `be read`,
    );
  }
  if (state === "ERROR" || /unavailable|does not exist|removed|private/i.test(reason)) {
    throw new AppError(
      "video_unavailable",
      `Video ${videoId} is unavailable on YouTube (it does not exist, was removed, or is private)`,
    );
  }
  const told = `${clean(reason) || clean(state)}${sub ? ` (${sub})` : ""}`;
  throw new AppError("video_unplayable", `YouTube will not play video ${videoId}: ${told}`);
}

/** The refusals that are about the address that asked, whatever the status says. */
function assertNotBlocked(status: any, reason: string, data: Record<string, any>, videoId: string): void {
  if (BOT_CHECK.test(reason)) throw blocked("YouTube refused this server with a bot check; try again later", 60);
  if (status?.errorScreen?.playerCaptchaViewModel) {
    throw blocked("YouTube asked this server to solve a captcha before playing videos; try again later", 60);
  }
  if (TRY_AGAIN_LATER.test(reason)) {
    throw blocked("YouTube is rate-limiting this server's session for up to an hour; try again later", 3600);
  }
  const answered = answeredVideoId(data);
  if (answered !== undefined && answered !== videoId) {
    throw blocked(
      `YouTube answered about another video than ${videoId}, as it does for an address it blocks; try again later`,
      60,
    );
  }
}

function blocked(message: string, retryAfterSeconds: number): AppError {
  return new AppError("upstream_blocked", message, { retryAfterSeconds });
}

/** @returns the video id a player answer is about, if it names one */
export function answeredVideoId(json: unknown): string | undefined {
  const id = (json as { videoDetails?: { videoId?: unknown } } | null)?.videoDetails?.videoId;
  return typeof id === "string" ? id : undefined;
}

/** YouTube's sub-reason runs (e.g. "This helps protect our community. " + "Learn more"), as one line. */
function subreasons(status: any): string {
  return runs(status?.errorScreen?.playerErrorMessageRenderer?.subreason);
}

function runs(text: any): string {
  if (typeof text?.simpleText === "string") return clean(text.simpleText);
  return Array.isArray(text?.runs) ? clean(text.runs.map((r: any) => String(r?.text ?? "")).join(" ")) : "";
}

/** YouTube's own words may reach callers, so they are bounded and kept to one plain line. */
function clean(text: string): string {
  // deno-lint-ignore no-control-regex -- control characters are what is cleaned out
  return text.replace(/[\u0000-\u001f\u007f]+/g, " ").replace(/\s+/g, " ").trim().slice(0, 200);
}
