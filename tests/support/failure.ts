/** @module The `AppError` a piece of work fails with (as a rejection, or thrown at once), for tests that expect a refusal. */
import { AppError } from "../../src/domain/errors.ts";

/**
 * @returns the AppError `work` rejects with
 * @throws the rejection itself when it is not an AppError, or an error when `work` succeeds
 */
export async function failure(work: Promise<unknown>): Promise<AppError> {
  try {
    await work;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("expected a failure");
}

/**
 * @returns the AppError `run` throws, for work that fails at once
 * @throws what `run` throws when it is not an AppError, or an error when `run` returns
 */
export function thrownFailure(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("expected a failure");
}
