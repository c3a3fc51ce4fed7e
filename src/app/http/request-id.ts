/** @module Chooses a request id: the caller's `x-request-id` when sane, else a new UUID. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * @param sent the caller's `x-request-id`, if any
 * @returns the caller's id when it is short and printable, else a new one
 */
export function chooseRequestId(sent: string | null): string {
  return sent && SANE_REQUEST_ID.test(sent) ? sent : crypto.randomUUID();
}
