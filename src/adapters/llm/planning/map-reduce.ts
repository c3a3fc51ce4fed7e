/** @module Map-reduce over a transcript too long for one call: notes per chunk, then a combined answer. */
import { chunkCues, renderCues } from "../../../domain/reading/chunking.ts";
import type { Cue } from "../../../domain/transcript.ts";
import type { AnswerSpec } from "../../../domain/ports.ts";
import { isAppError } from "../../../domain/errors.ts";
import { type ReadSoFar, StalePlanError } from "../budget/reservation.ts";
import { estimateTokens } from "../../../domain/reading/tokens.ts";
import type { CallBudget } from "./call-budget.ts";
import { combinePrompt, messages, partNotesPrompt, type PromptContext, promptTokens } from "./prompts.ts";
import type { Run } from "../calls/run.ts";
import type { OnText } from "../calls/completer.ts";

/** `max_tokens` of a map call: notes of at most 120 words, with a little slack. */
export const NOTES_MAX_TOKENS = 320;

/**
 * Map-reduce over a transcript too long for one call: notes on each chunk,
 * made concurrently (the run bounds how many at once), then combined into
 * the answer; when the notes themselves overflow one call, they are merged
 * in groups first, level by level.
 *
 * A part whose notes the budget can no longer give in time (other
 * requests took their fair share) is left out, never the first: the plan
 * is condensed further rather than failing; each notes call must leave
 * time and tokens for the combining call.
 *
 * @param lines the transcript as lines (see `transcriptLines`)
 * @param prior notes a stale plan read before these lines (see `StalePlanError`), combined first
 * @returns the final answer, and the share of the lines' tokens read
 * @throws {StalePlanError} with the notes read so far, when the plan is found stale
 */
export async function mapReduce(
  run: Run,
  spec: AnswerSpec,
  context: PromptContext,
  budget: CallBudget,
  lines: readonly Cue[],
  onText?: OnText,
  prior?: ReadSoFar,
): Promise<{ text: string; read: number }> {
  const partAsk = (transcript: string, index: number, count: number) =>
    messages(
      context,
      partNotesPrompt(context, { transcript, index, count, prompt: spec.prompt, intent: spec.intent }),
      "notes",
    );
  const room = budget.input - promptTokens(partAsk("", 999, 999), run.count);
  const chunks = chunkCues(lines, Math.max(1, room), run.count);
  const notesTokens = Math.min(NOTES_MAX_TOKENS, budget.output);
  let read = 0;
  spec.events?.progress({ stage: "reading", done: 0, total: chunks.length });
  // What the combining call will take: its prompt, every part's notes, the answer.
  const leave = promptTokens(combineAsk(context, spec, [], false), run.count) + chunks.length * notesTokens +
    budget.output + run.reasoningRoom;
  const done: (string | undefined)[] = [];
  // The plan cannot do without its first part, unless a plan found stale read the start already: then every part of
  // the rest may be left out, and none of them goes ahead of calls other requests planned on meanwhile.
  const firm = (index: number) => index === 0 && !(prior && prior.notes.length > 0);
  // The last part is asked for second, so that when parts must be left out they are from the middle and the end is
  // read.
  const order = chunks.length > 1
    ? [0, chunks.length - 1, ...Array.from({ length: chunks.length - 2 }, (_, i) => i + 1)]
    : [0];
  const asked = await run.all(order, async (index) => {
    const chunk = chunks[index]!;
    const note = await run.call(partAsk(renderCues(chunk.cues), index, chunks.length), notesTokens, undefined, {
      tokensAfter: leave,
      optional: !firm(index),
    }).catch((error) => {
      if (firm(index) || !isAppError(error, "overloaded") || spec.signal?.aborted) throw error;
      return undefined;
    });
    spec.events?.progress({ stage: "reading", done: ++read, total: chunks.length });
    done[index] = note ?? "";
    return { index, note };
  }).catch((error) => {
    throw error instanceof StalePlanError ? new StalePlanError(readSoFar(chunks, done, prior)) : error;
  });
  const notes: (string | undefined)[] = [];
  for (const { index, note } of asked) notes[index] = note;
  const readTokens = chunks.reduce((sum, chunk, index) => sum + (notes[index] === undefined ? 0 : chunk.tokens), 0);
  const useful = [...(prior?.notes ?? []), ...notes].filter((note): note is string =>
    note !== undefined && note !== "" && !/^\W*NONE\W*$/i.test(note)
  );
  const text = await reduce(
    run,
    spec,
    context,
    budget,
    useful.length > 0 ? useful : ["(No part of the transcript speaks about this.)"],
    onText,
  );
  return { text, read: readTokens / Math.max(1, chunks.reduce((sum, chunk) => sum + chunk.tokens, 0)) };
}

/** Combines the notes; only the last call, the answer's, is streamed to `onText`. */
async function reduce(
  run: Run,
  spec: AnswerSpec,
  context: PromptContext,
  budget: CallBudget,
  notes: string[],
  onText?: OnText,
): Promise<string> {
  const ask = (batch: readonly string[], partial: boolean) => combineAsk(context, spec, batch, partial);
  const final = ask(notes, false);
  const write = (
    last: typeof final,
  ) => (spec.events?.progress({ stage: "writing" }), run.call(last, budget.output, onText));
  if (promptTokens(final, run.count) <= budget.input) return await write(final);
  if (notes.length === 1) {
    return await write(ask([clip(notes[0]!, budget.input - promptTokens(ask([], false), run.count))], false));
  }
  const room = budget.input - promptTokens(ask([], true), run.count);
  const groups = pack(notes.map((note) => clip(note, Math.floor(room / 2) - 2)), room);
  const merged = await run.all(
    groups,
    (group) => run.call(ask(group, true), Math.min(NOTES_MAX_TOKENS, budget.output)),
  );
  return await reduce(run, spec, context, budget, merged, onText);
}

/** The notes of the parts read without a gap from the first, after those of `prior`. */
function readSoFar(
  chunks: readonly { cues: readonly Cue[]; tokens: number }[],
  done: readonly (string | undefined)[],
  prior?: ReadSoFar,
): ReadSoFar {
  const read: ReadSoFar = { notes: [...(prior?.notes ?? [])], until: prior?.until ?? 0, tokens: prior?.tokens ?? 0 };
  for (const [index, chunk] of chunks.entries()) {
    if (done[index] === undefined) break;
    read.notes.push(done[index]!);
    const last = chunk.cues.at(-1);
    if (last) read.until = last.start + last.duration;
    read.tokens += chunk.tokens;
  }
  return read;
}

function combineAsk(context: PromptContext, spec: AnswerSpec, notes: readonly string[], partial: boolean) {
  return messages(
    context,
    combinePrompt(context, { notes: notes.join("\n\n"), prompt: spec.prompt, intent: spec.intent, partial }),
    partial ? "notes" : "answer",
  );
}

/**
 * Groups notes in order so each group's text fits `room` tokens; each note fits half of it, so groups hold two or more.
 */
function pack(notes: readonly string[], room: number): string[][] {
  const groups: string[][] = [];
  let used = room;
  for (const note of notes) {
    const cost = estimateTokens(note) + 2;
    if (used + cost > room) {
      groups.push([]);
      used = 0;
    }
    groups.at(-1)!.push(note);
    used += cost;
  }
  return groups;
}

/** Cuts a text to about `tokens` tokens, between words. */
function clip(text: string, tokens: number): string {
  if (estimateTokens(text) <= tokens) return text;
  const words = text.split(/(\s+)/u);
  let out = "";
  for (const word of words) {
    if (estimateTokens(out + word + " …") > tokens) break;
    out += word;
  }
  return `${out.trimEnd()} …`;
}
