/** @module Checks a parsed chat body against the compiled request schema before Elysia does. */
import type { TSchema } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { AppError } from "../../domain/errors.ts";
import { ChatBody } from "./chat-schema.ts";
import { describeInvalidBody } from "./validation-message.ts";

// The same schema at run time; the cast is for `deno check`, where Elysia's declarations reach
// TypeBox's CommonJS types and this import its ES module types (two declarations of `[Kind]`).
// Compiled once: the checker runs on every request.
const checker = TypeCompiler.Compile(ChatBody as unknown as TSchema);

/**
 * Checks a parsed body against {@link ChatBody} before Elysia does. Elysia's
 * own validation error formats the offending value with `${value}`, which
 * throws on values such as `[{"toString": null}]` and recurses through deep
 * nesting: a 500 where the contract says 400.
 *
 * A body that fits is flat, so the check measures how deep a value nests
 * only once it fails, before it describes the errors.
 *
 * @param body the parsed JSON body
 * @param options.maxDepth nesting refused (`nested more than N levels deep`) before describing a failure
 * @returns the body, unchanged, when it fits the schema
 * @throws {AppError} `invalid_request` naming the field, as for any schema failure
 */
export function checkChatBody(body: unknown, options: { maxDepth?: number } = {}): unknown {
  if (checker.Check(body)) return body;
  const { maxDepth } = options;
  if (maxDepth !== undefined && nestedDeeperThan(body, maxDepth)) {
    throw new AppError(
      "invalid_request",
      `The request body is nested more than ${maxDepth} levels deep; send a flat JSON object such as {"url": ` +
        `"https://youtu.be/VIDEO_ID"}`,
    );
  }
  const issues = [...checker.Errors(body)].map((error) => ({ path: error.path, value: error.value }));
  throw new AppError("invalid_request", describeInvalidBody(body, issues));
}

/** Walks without recursion, so the check itself cannot overflow. */
function nestedDeeperThan(root: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[root, 1]];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [value, depth] = next;
    if (typeof value !== "object" || value === null) continue;
    if (depth > max) return true;
    for (const child of Object.values(value)) stack.push([child, depth + 1]);
  }
  return false;
}
