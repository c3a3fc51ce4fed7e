/** @module What the fake YouTube refuses as YouTube does: retired app versions, gated captions, translations, audio. */
import { fixture } from "../fixtures.ts";

/**
 * How YouTube refuses an app version it no longer serves: HTTP 400 `FAILED_PRECONDITION` on the player call (2024-2026
 * reports), a 200 whose status is `ERROR` with "no longer supported" (2026-04), or one whose sub-reason asks for the
 * latest version of the app (2023).
 */
export type RetiredForm = "400" | "unsupported" | "latest-version";

/** A client name's oldest version still served, and how older ones are refused. */
export interface Retirement {
  current: string;
  form: RetiredForm;
}

/** Client name → its retirement; names not listed are served whatever their version. */
export type RetirementPolicy = Readonly<Record<string, Retirement>>;

/**
 * As YouTube answered in late 2026: ANDROID and IOS versions before 21 refused with HTTP 400 (ANDROID 20.10.38 stopped
 * working for captions in August 2026; 21.x is what yt-dlp sends since July).
 */
export const LATE_2026: RetirementPolicy = {
  ANDROID: { current: "21", form: "400" },
  IOS: { current: "21", form: "400" },
};

/** The identity a player call's body presents. */
export function presentedClient(body: string | undefined): { name: string; version: string } | undefined {
  try {
    const client = JSON.parse(body ?? "{}")?.context?.client;
    if (typeof client?.clientName !== "string") return undefined;
    return { name: client.clientName, version: String(client.clientVersion ?? "") };
  } catch {
    return undefined;
  }
}

/** @returns YouTube's refusal of a retired identity, or undefined when the identity is served */
export function retiredAnswer(policy: RetirementPolicy, body: string | undefined): Response | undefined {
  const client = presentedClient(body);
  const rule = client && policy[client.name];
  if (!client || !rule || !olderThan(client.version, rule.current)) return undefined;
  if (rule.form === "400") {
    return new Response(fixture("player_failed_precondition.json"), {
      status: 400,
      headers: { "content-type": "application/json; charset=UTF-8" },
    });
  }
  const file = rule.form === "unsupported"
    ? "player_client_unsupported.innertube.json"
    : "player_latest_version.innertube.json";
  return new Response(fixture(file), { headers: { "content-type": "application/json; charset=UTF-8" } });
}

/** @returns whether `version` is older than `current` (numbers compared part by part); a version not in numbers is */
function olderThan(version: string, current: string): boolean {
  if (!/^\d+(\.\d+)*$/.test(version)) return true;
  const a = version.split(".").map(Number);
  const b = current.split(".").map(Number);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const difference = (a[i] ?? 0) - (b[i] ?? 0);
    if (difference !== 0) return difference < 0;
  }
  return false;
}

/** Clients whose audio URLs YouTube serves only with a proof-of-origin token (`pot`): 403 without, as in late 2026. */
export const POT_REQUIRED = new Set(["ANDROID", "IOS"]);

/** The bytes every audio URL of the captured video serves (the fake checks who may fetch them, not what they are). */
const AUDIO_BYTES = new Uint8Array(4096).map((_, i) => i % 251);

/**
 * `GET /videoplayback` of the captured video: 403 for a client that needs a token and sent none (its `c`), else the
 * range asked (206).
 */
export function audioAnswer(url: URL, range: string | null): Response {
  if (POT_REQUIRED.has(url.searchParams.get("c") ?? "") && !url.searchParams.has("pot")) {
    return new Response("", { status: 403 });
  }
  const match = /^bytes=(\d+)-(\d*)$/.exec(range ?? "");
  const start = Math.min(Number(match?.[1] ?? 0), AUDIO_BYTES.length - 1);
  const end = Math.min(AUDIO_BYTES.length - 1, match?.[2] ? Number(match[2]) : AUDIO_BYTES.length - 1);
  return new Response(AUDIO_BYTES.slice(start, end + 1), {
    status: 206,
    headers: { "content-range": `bytes ${start}-${end}/${AUDIO_BYTES.length}`, "content-type": "audio/mp4" },
  });
}

/**
 * How the fake answers translated caption requests (`tlang`): `none` serves them; `plain` answers 429 unless the
 * request looks like YouTube's web player's (its `c=WEB`/`cplayer` parameters, a browser user agent and a watch-page
 * referer), as YouTube did from addresses it did not block; `all` answers 429 to every one.
 */
export type TranslationLimit = "none" | "plain" | "all";

/** Caption URLs YouTube serves only with a proof-of-origin token: any `exp` value `xpe` or `xpv` (an empty 200 else). */
export function isGated(url: URL): boolean {
  return url.searchParams.getAll("exp").flatMap((v) => v.split(",")).some((v) => v === "xpe" || v === "xpv");
}

/** Whether a translated caption request is refused with 429 under `limit`. */
export function refusesTranslation(limit: TranslationLimit, url: URL, headers: Headers): boolean {
  if (limit === "all") return true;
  if (limit === "none") return false;
  const webPlayer = url.searchParams.get("c") === "WEB" && url.searchParams.get("cplayer") === "UNIPLAYER";
  const browser = /^Mozilla\//.test(headers.get("user-agent") ?? "");
  return !(webPlayer && browser && /\/watch\?v=/.test(headers.get("referer") ?? ""));
}
