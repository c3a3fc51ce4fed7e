/** @module Tests of chat-schema.ts: the statuses `POST /chat` declares come from the status map. */
import { describe, expect, test } from "bun:test";
import { CHAT_RESPONSES, ChatResponseBody, ErrorBody } from "../../../src/app/contract/chat-schema.ts";
import { ERROR_STATUS } from "../../../src/app/contract/error-status.ts";
import type { ErrorCode } from "../../../src/domain/errors.ts";

describe("CHAT_RESPONSES", () => {
  test("declares the answer at 200 and the error body at every status POST /chat answers, 408 included", () => {
    expect(Object.keys(CHAT_RESPONSES).map(Number)).toEqual([
      200,
      400,
      401,
      408,
      413,
      415,
      422,
      429,
      500,
      502,
      503,
      504,
    ]);
    expect(CHAT_RESPONSES[200]).toBe(ChatResponseBody);
    expect(CHAT_RESPONSES[408]).toBe(ErrorBody);
  });

  test("has the status of every error code but those of other paths and methods (404, 405)", () => {
    const declared = CHAT_RESPONSES as Record<number, unknown>;
    for (const [code, status] of Object.entries(ERROR_STATUS) as [ErrorCode, number][]) {
      const expected = code === "not_found" || code === "method_not_allowed" ? undefined : ErrorBody;
      expect([code, declared[status]]).toEqual([code, expected]);
    }
  });
});
