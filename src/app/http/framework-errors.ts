/** @module Turns what the app's error hook caught into the contract's error, and describes errors for logs. */
import { AppError } from "../../domain/errors.ts";
import { fromFrameworkCode, INTERNAL_ERROR_MESSAGE } from "../contract/error-response.ts";
import { describeInvalidBody } from "../contract/validation-message.ts";

/**
 * The contract's error for what the app's error hook caught: an `AppError` as
 * is (also when wrapped), Elysia's validation, route and parse failures as
 * 400 or 404 with a message for people, anything else a 500 that leaks nothing.
 */
export function toAppError(code: string | number, error: unknown, request: Request): AppError {
  const inner = error instanceof Error && error.cause instanceof AppError ? error.cause : error;
  if (inner instanceof AppError) return inner;
  const mapped = fromFrameworkCode(code);
  if (code === "VALIDATION") {
    const failure = error as { value?: unknown; all?: { path: string; value?: unknown }[] };
    return new AppError("invalid_request", describeInvalidBody(failure.value, failure.all ?? []));
  }
  if (mapped === "not_found") {
    return new AppError("not_found", `No such path: ${pathOf(request.url).slice(0, 100)}; the API is POST /chat`);
  }
  if (mapped === "invalid_request") return new AppError("invalid_request", "The request body is not valid JSON");
  return new AppError("internal_error", INTERNAL_ERROR_MESSAGE, { cause: error });
}

/** The path of a request URL; the raw target when it is not a URL (a CONNECT's `host:port`). */
export function pathOf(url: string): string {
  return URL.canParse(url) ? new URL(url).pathname : url;
}

/** An error for the log (never for callers): name, message and stack. */
export function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}\n${error.stack ?? ""}` : String(error);
}
