/** @module Turns schema failures of a request body into one sentence for people. */
import { CHAT_FIELDS, ChatBody } from "./chat-schema.ts";

/** One schema failure as Elysia/TypeBox report it. */
export interface SchemaIssue {
  path: string;
  value?: unknown;
}

/**
 * Turns schema failures into one sentence for people, naming the field and
 * the accepted values. Unknown fields come first: a typo must be named.
 *
 * @param body the body that failed validation
 * @param issues the failures reported by the validator
 */
export function describeInvalidBody(body: unknown, issues: readonly SchemaIssue[]): string {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return `The request body must be a JSON object; got ${kindOf(body)}`;
  }
  const unknown = Object.keys(body).filter((key) => !CHAT_FIELDS.includes(key));
  if (unknown.length > 0) {
    const names = unknown.map((k) => JSON.stringify(k.slice(0, 40))).join(", ");
    return `Unknown field${unknown.length > 1 ? "s" : ""} ${names}; allowed fields: ${CHAT_FIELDS.join(", ")}`;
  }
  const record = body as Record<string, unknown>;
  if (!("url" in record)) return `Field "url" is required; send the YouTube video URL`;
  const field = issues.map((i) => i.path.split("/")[1]).find((name) => name && CHAT_FIELDS.includes(name)) ?? "url";
  return describeField(field, record[field]);
}

function describeField(field: string, value: unknown): string {
  const schema = ChatBody.properties[field as keyof typeof ChatBody.properties] as { enum?: string[] };
  const allowed = schema.enum;
  if (allowed && typeof value === "string") {
    return `Field "${field}" must be one of ${allowed.join(", ")} (exact, lower case); got ${
      JSON.stringify(value.slice(0, 40))
    }`;
  }
  const expected = allowed ? `a string, one of ${allowed.join(", ")}` : "a string";
  return `Field "${field}" must be ${expected}; got ${kindOf(value)}`;
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}
