/** @module The one table of InnerTube client identities: id, version, user agent and device fields, and defaults. */

/** An InnerTube client identity as the player call sends it, e.g. ANDROID 21.26.364. */
export interface InnertubeClient {
  name: string;
  version: string;
  /** `X-YouTube-Client-Name`: the numeric id YouTube knows the client by (undefined for a name not in the table). */
  id?: number;
  /** The app's own user agent, sent as the request's and in `context.client`. */
  userAgent?: string;
  /** More `context.client` fields the client is known by (its device and OS). */
  context?: Readonly<Record<string, string | number>>;
}

/** What the table knows about one client name; the user agent may carry the version. */
interface KnownClient {
  id: number;
  /** The version the app sends today (one YouTube serves); the default when configured without one. */
  version: string;
  userAgent(version: string): string;
  context: Readonly<Record<string, string | number>>;
}

/**
 * Every client the service knows, as the apps present themselves: the one place to update when YouTube retires a
 * version (docs/operating.md, "When YouTube changes its apps", says where current versions are published).
 * As of 2026-08: ANDROID 21.26.364 and IOS 21.26.4 (sent since 2026-07-09), VISIONOS 1.02 (since 2026-07-20).
 */
const KNOWN: Readonly<Record<string, KnownClient>> = {
  ANDROID: {
    id: 3,
    version: "21.26.364",
    userAgent: (v) => `com.google.android.youtube/${v} (Linux; U; Android 11) gzip`,
    context: { androidSdkVersion: 30, osName: "Android", osVersion: "11" },
  },
  IOS: {
    id: 5,
    version: "21.26.4",
    userAgent: (v) => `com.google.ios.youtube/${v} (iPhone16,2; U; CPU iOS 18_3_2 like Mac OS X;)`,
    context: { deviceMake: "Apple", deviceModel: "iPhone16,2", osName: "iPhone", osVersion: "18.3.2.22D82" },
  },
  VISIONOS: {
    id: 101,
    version: "1.02",
    userAgent: () =>
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 15_7_3) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/26.0 " +
      "Safari/605.1.15",
    context: { deviceMake: "Apple", deviceModel: "RealityDevice17,1", osName: "visionOS", osVersion: "26.5.23O471" },
  },
  // The browser's own player: never a configured client (its caption URLs need a PoToken), the identity its requests
  // carry when a caption track is asked for as the web player asks.
  WEB: { id: 1, version: "2.20260708.00.00", userAgent: () => BROWSER_USER_AGENT, context: {} },
  // Its audio answers 403 since 2026-08-17: known so that an operator who names it is sent as the app sends it.
  ANDROID_VR: {
    id: 28,
    version: "1.65.10",
    userAgent: (v) =>
      `com.google.android.apps.youtube.vr.oculus/${v} (Linux; U; Android 12L; eureka-user ` +
      "Build/SQ3A.220605.009.A1) gzip",
    context: {
      deviceMake: "Oculus",
      deviceModel: "Quest 3",
      androidSdkVersion: 32,
      osName: "Android",
      osVersion: "12L",
    },
  },
};

/** `YOUTUBE_CLIENTS` by default: the caption clients, tried in order. */
export const DEFAULT_CLIENT_NAMES = ["ANDROID", "IOS"] as const;
/** `YOUTUBE_AUDIO_CLIENTS` by default: a client whose audio URLs need no proof-of-origin token. */
export const DEFAULT_AUDIO_CLIENT_NAMES = ["VISIONOS"] as const;

/**
 * A desktop browser's user agent, for the requests a browser makes (the watch page, caption tracks, audio of a
 * client that has no app user agent): the runtime's own would mark them as a script.
 */
export const BROWSER_USER_AGENT =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/150.0.0.0 Safari/537.36";

/** The consent cookie a browser that accepted YouTube's cookie banner holds: sent in advance, no consent wall shown. */
export const CONSENT_IN_ADVANCE = "SOCS=CAI";

/**
 * @param name a client name, e.g. `ANDROID`
 * @param version its version; the table's current one when omitted
 * @returns the identity as the app sends it; a name not in the table is sent with its name and version only
 */
export function innertubeClient(name: string, version?: string): InnertubeClient {
  const known = KNOWN[name];
  if (!known) return { name, version: version ?? "" };
  const sent = version ?? known.version;
  return { name, version: sent, id: known.id, userAgent: known.userAgent(sent), context: known.context };
}

/**
 * @param clients names and versions as configured
 * @returns each with its id, user agent and device fields from the table
 */
export function innertubeClients(clients: readonly { name: string; version: string }[]): InnertubeClient[] {
  return clients.map((client) => innertubeClient(client.name, client.version));
}

/**
 * The one source of the default client lists (`YOUTUBE_CLIENTS`, `YOUTUBE_AUDIO_CLIENTS` unset).
 *
 * @param names client names of the table, e.g. {@linkcode DEFAULT_CLIENT_NAMES}
 * @returns each at the table's current version
 */
export function atCurrentVersions(names: readonly string[]): { name: string; version: string }[] {
  return names.map((name) => ({ name, version: KNOWN[name]?.version ?? "" }));
}

/** @returns the table's current version of a client name, or undefined for a name it does not know */
export function currentVersion(name: string): string | undefined {
  return KNOWN[name]?.version;
}

/** @returns `NAME VERSION`, how logs, errors and the doctor name a client */
export function clientLabel(client: { name: string; version: string }): string {
  return `${client.name} ${client.version}`;
}

/**
 * @returns the `context.client` of a player call: the identity, its device fields, and the locale the answers are
 *   read in (English, US, UTC)
 */
export function clientContext(client: InnertubeClient): Record<string, string | number> {
  return {
    clientName: client.name,
    clientVersion: client.version,
    ...(client.userAgent ? { userAgent: client.userAgent } : {}),
    ...client.context,
    hl: "en",
    gl: "US",
    timeZone: "UTC",
    utcOffsetMinutes: 0,
  };
}

/** @returns the headers the apps send with a player call: their user agent and `X-YouTube-Client-*` */
export function clientHeaders(client: InnertubeClient): Record<string, string> {
  const headers: Record<string, string> = { "user-agent": client.userAgent ?? BROWSER_USER_AGENT };
  if (client.id !== undefined) {
    headers["x-youtube-client-name"] = String(client.id);
    headers["x-youtube-client-version"] = client.version;
  }
  return headers;
}

/**
 * @returns a negative, zero or positive number as version `a` is older than, equal to, or newer than `b`
 *   (dot-separated numbers, compared part by part; a missing part is 0)
 */
export function compareVersions(a: string, b: string): number {
  const left = a.split(".").map(Number);
  const right = b.split(".").map(Number);
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const difference = (left[i] || 0) - (right[i] || 0);
    if (difference !== 0) return difference;
  }
  return 0;
}
