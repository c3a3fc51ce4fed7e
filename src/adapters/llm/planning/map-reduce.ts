/** @module Map-reduce over a transcript too long for one call: notes per chunk, then a combined answer. */
import { chunkCues, renderCues } from "../../../domain/reading/chunking.ts";
import type { Cue } from "../../../domain/transcript.ts";
import { isAppError } from "../../../domain/errors.ts";
import { type ReadSoFar, StalePlanError } from "../budget/reservation.ts";
import { estimateTokens } from "../../../domain/reading/tokens.ts";
import { type ChatMessage, promptTokens } from "../calls/chat-message.ts";
import { combineAsk, EMPTY_PART, NOTES_MAX_TOKENS, notesAsk } from "./prompts.ts";
import type { CallBudget, Drafting } from "./types.ts";

/** What a map-reduce reads, and within what. */
export interface Reading {
  /** The transcript as lines (see `transcriptLines`). */
  lines: readonly Cue[];
  budget: CallBudget;
  /** Notes a stale plan read before these lines (see `StalePlanError`), combined first. */
  prior?: ReadSoFar;
}

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
 * @returns the messages of the answer's call, which combines the notes (the caller makes it, as every plan's last),
 *   and the share of the lines' tokens read
 * @throws {StalePlanError} with the notes read so far, when the plan is found stale
 */
export async function mapReduce(job: Drafting, reading: Reading): Promise<{ ask: ChatMessage[]; read: number }> {
  const { run } = job;
  const room = reading.budget.input - promptTokens(notesAsk(job, EMPTY_PART), run.count);
  const chunks = chunkCues(reading.lines, Math.max(1, room), run.count);
  const notes = await mapParts(job, chunks, reading);
  const readTokens = chunks.reduce((sum, chunk, index) => sum + (notes[index] === undefined ? 0 : chunk.tokens), 0);
  const useful = [...(reading.prior?.notes ?? []), ...notes].filter((note): note is string =>
    note !== undefined && note !== "" && !/^\W*NONE\W*$/i.test(note)
  );
  const ask = await reduce(
    job,
    reading.budget,
    useful.length > 0 ? useful : ["(No part of the transcript speaks about this.)"],
  );
  return { ask, read: readTokens / Math.max(1, chunks.reduce((sum, chunk) => sum + chunk.tokens, 0)) };
}

/**
 * Notes on every part, asked concurrently; a part the budget can no longer serve in time is left out (undefined).
 *
 * @throws {StalePlanError} with the notes read so far, when the plan is found stale
 */
async function mapParts(job: Drafting, chunks: readonly Chunk[], { budget, prior }: Reading): Promise<Note[]> {
  const { run, spec } = job;
  const notesTokens = Math.min(NOTES_MAX_TOKENS, budget.output);
  let read = 0;
  spec.events?.progress({ stage: "reading", done: 0, total: chunks.length });
  // What the combining call will take: its prompt, every part's notes, the answer.
  const tokensAfter = promptTokens(combineAsk(job, [], false), run.count) + chunks.length * notesTokens +
    budget.output + run.reasoningRoom;
  const done: Note[] = [];
  // The plan cannot do without its first part, unless a plan found stale read the start already: then every part of
  // the rest may be left out, and none of them goes ahead of calls other requests planned on meanwhile.
  const firm = (index: number) => index === 0 && !(prior && prior.notes.length > 0);
  // The last part is asked for second, so that when parts must be left out they are from the middle and the end is
  // read.
  const order = chunks.length > 1
    ? [0, chunks.length - 1, ...Array.from({ length: chunks.length - 2 }, (_, i) => i + 1)]
    : chunks.map((_, i) => i);
  const asked = await run.all(order, async (index) => {
    const ask = notesAsk(job, { transcript: renderCues(chunks[index]!.cues), index, count: chunks.length });
    const note = await run.call(ask, notesTokens, undefined, { tokensAfter, optional: !firm(index) }).catch(
      (error) => {
        if (firm(index) || !isAppError(error, "overloaded") || spec.signal?.aborted) throw error;
        return undefined;
      },
    );
    spec.events?.progress({ stage: "reading", done: ++read, total: chunks.length });
    done[index] = note ?? "";
    return { index, note };
  }).catch((error) => {
    throw error instanceof StalePlanError ? new StalePlanError(readSoFar(chunks, done, prior)) : error;
  });
  const notes: Note[] = [];
  for (const { index, note } of asked) notes[index] = note;
  return notes;
}

/** Merges the notes until they fit one call: @returns the messages of the answer's call, which combines them */
async function reduce(job: Drafting, budget: CallBudget, notes: string[]): Promise<ChatMessage[]> {
  const { run } = job;
  // Each round merges the notes in groups, level by level, until the answer's call holds them all.
  for (let level = notes;;) {
    const final = combineAsk(job, level, false);
    if (promptTokens(final, run.count) <= budget.input) return final;
    if (level.length === 1) {
      const room = budget.input - promptTokens(combineAsk(job, [], false), run.count);
      return combineAsk(job, [clip(level[0]!, room)], false);
    }
    const room = budget.input - promptTokens(combineAsk(job, [], true), run.count);
    const groups = pack(level.map((note) => clip(note, Math.floor(room / 2) - 2)), room);
    level = await run.all(
      groups,
      (group) => run.call(combineAsk(job, group, true), Math.min(NOTES_MAX_TOKENS, budget.output)),
    );
  }
}

/** A part's notes; undefined when the part was left out. */
type Note = string | undefined;

/** A part of the transcript as map-reduce reads it. */
type Chunk = { cues: readonly Cue[]; tokens: number };

/** The notes of the parts read without a gap from the first, after those of `prior`. */
function readSoFar(chunks: readonly Chunk[], done: readonly Note[], prior?: ReadSoFar): ReadSoFar {
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
