/** @module Ids of quota holds that sort by time, so a store's index of holds grows at one end. */

let sequence = 0;
/** Tells apart the processes that share a store (two ids of one millisecond and sequence number). */
const PROCESS_TAG = crypto.randomUUID().slice(0, 8);

/**
 * A hold's id: its start time, a sequence number within the process, and a tag of the process, in that order,
 * so that ids sort by time. Holds with random ids each land on a page of their own in the SQLite file's index
 * (each hold writes a page more): ordered ones fill the last page, halving a hold's cost.
 *
 * @param at when the request began (ms since the epoch)
 */
export function nextHoldId(at: number): string {
  sequence = (sequence + 1) % 1_679_616; // 36^4: four base-36 digits
  return `${at.toString(36).padStart(9, "0")}${sequence.toString(36).padStart(4, "0")}${PROCESS_TAG}`;
}
