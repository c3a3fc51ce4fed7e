/** @module One `get_transcript` call: arguments checked, the transcript read, one page of it as the result. */
import type { TranscriptReader } from "../../domain/transcript-reading.ts";
import type { ToolResult } from "./chat-tool.ts";
import { createProgressSteps } from "./progress.ts";
import { callTimeoutMs, runToolCall, type ToolCallDeps, type ToolCallOptions, videoCallSteps } from "./tool-call.ts";
import { MCP_IDENTITY } from "./admission.ts";
import { transcriptPage } from "./transcript-page.ts";
import { chargedMinutes } from "../../domain/usage/quota.ts";
import { textCharacters } from "../../domain/transcript.ts";
import { Account } from "../../domain/usage/account.ts";
import { speechCharges, withOwnRefusals } from "../../domain/usage/upstream-work.ts";
import { charging } from "../usage/admission.ts";
import { toTranscriptArguments, TRANSCRIPT_TOOL_NAME } from "./transcript-tool.ts";

/** What a `get_transcript` call needs: the transcript use case, and what every call needs. */
export interface TranscriptCallDeps extends ToolCallDeps {
  transcripts: TranscriptReader;
}

/**
 * Runs one call of the tool. Never throws: every failure is a result with
 * `isError` whose text starts with the error code, as for `chat_about_video`.
 *
 * @param args the call's `arguments`
 */
export function callTranscriptTool(
  deps: TranscriptCallDeps,
  args: unknown,
  options: ToolCallOptions = {},
): Promise<ToolResult> {
  return runToolCall(deps, TRANSCRIPT_TOOL_NAME, args, {
    ...videoCallSteps(deps, options, toTranscriptArguments),
    async run(request, fields, metered) {
      const { progress } = options;
      const steps = progress ? createProgressSteps() : undefined;
      // Speech-to-text run for this call transcribes the whole video: its minutes are held first, and charged, with
      // each piece's audio seconds as it is transcribed.
      let transcribed: { videoSeconds?: number } | undefined;
      const account = new Account(charging(metered));
      const charges = metered && speechCharges(account, (videoSeconds) => (transcribed = { videoSeconds }));
      // A fetch shared with a caller whose request refused it (its quota, or it ended) is read again as this call's.
      const reading = await withOwnRefusals(account, () =>
        deps.transcripts.read(request, {
          ...charges,
          signal: options.signal,
          holder: (deps.identity ?? MCP_IDENTITY).id,
          onNothingHeard: () => account.chargeFailure(),
          timeoutMs: callTimeoutMs(deps, options),
          onProgress: steps && ((event) => {
            const step = steps.next(event);
            if (step) progress!(step);
          }),
        }));
      const result = transcriptPage(reading, request);
      const page = result.structuredContent!;
      fields.segments = (page.segments as unknown[]).length;
      if (page.next_from_seconds !== undefined) fields.next_from_seconds = page.next_from_seconds;
      // A page is charged the minutes of video it covers, or its text's when denser than speech, so a video read page
      // by page costs about its length. They are held before the page is handed over: concurrent calls cannot share
      // the last minutes.
      const videoSeconds = transcribed ? transcribed.videoSeconds : pageSeconds(page);
      const characters = textCharacters(page.segments as { text: string }[]);
      if (!transcribed) await metered?.admit?.(chargedMinutes(videoSeconds, characters));
      // Its audio seconds, if any, were charged piece by piece.
      metered?.answered({ cache: "miss", answer: { videoSeconds, characters } });
      return result;
    },
  });
}

/** @returns seconds of video from the page's first segment's start to its last one's end */
function pageSeconds(page: Record<string, unknown>): number {
  const segments = page.segments as { start: number; duration: number }[];
  if (segments.length === 0) return 0;
  const last = segments.at(-1)!;
  return Math.max(0, last.start + last.duration - segments[0]!.start);
}
