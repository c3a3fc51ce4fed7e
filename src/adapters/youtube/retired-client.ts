/** @module A client identity YouTube no longer serves ("retired"): its signs, its errors and their check. */
import { AppError, isAppError } from "../../domain/errors.ts";
import { clientLabel } from "./innertube-clients.ts";

/** Marks a refusal of the client identity rather than of the video (kept as an error's cause). */
class RetiredClient extends Error {
  override name = "RetiredClient";
  constructor(detail: string, readonly clients: readonly { name: string; version: string }[]) {
    super(detail);
  }
}

/**
 * What YouTube says to an app version it no longer serves: "YouTube is no longer supported in this application or
 * device", "Watch on the latest version of YouTube", "can only be played on newer versions of Android".
 */
const RETIREMENT = /no longer supported|latest version|newer versions? of|update (the|your) (youtube )?app/i;

/** @returns whether a reason or sub-reason of a player answer speaks of an unsupported app or its latest version */
export function speaksOfRetirement(text: string): boolean {
  return RETIREMENT.test(text);
}

/**
 * @param client the identity refused; undefined where the answer is read without knowing who asked
 * @param detail what YouTube answered (for logs; YouTube's own words are never sent to callers from here)
 * @returns a 502 `upstream_error` that {@linkcode isRetired} recognises
 */
export function retiredClient(client: { name: string; version: string } | undefined, detail: string): AppError {
  const who = client ? `the ${clientLabel(client)} client` : "the client";
  return new AppError("upstream_error", `YouTube no longer accepts ${who}; try again later`, {
    cause: new RetiredClient(detail, client ? [client] : []),
  });
}

/**
 * Every configured identity refused as retired: an operator's matter, said so to whoever reads the message.
 *
 * @param clients the identities refused, in the order asked
 * @returns a 502 `upstream_error` naming them and the setting to change
 */
export function everyClientRetired(clients: readonly { name: string; version: string }[]): AppError {
  const named = clients.map(clientLabel).join(", ");
  return new AppError(
    "upstream_error",
    `YouTube no longer accepts the app versions this server presents itself as (${named}): the operator must set ` +
      "YOUTUBE_CLIENTS to current versions (docs/operating.md: When YouTube changes its apps); try again later",
    { cause: new RetiredClient("every client retired", clients) },
  );
}

/** @returns whether `error` is a refusal of a client identity, not of the video */
export function isRetired(error: unknown): error is AppError {
  return isAppError(error, "upstream_error") && error.cause instanceof RetiredClient;
}

/** @returns what YouTube answered, for a retired error (empty for any other) */
export function retiredDetail(error: unknown): string {
  return isRetired(error) ? (error.cause as RetiredClient).message : "";
}
