/** @module fast-check arbitraries of labelled URLs: real YouTube video URLs and look-alikes to refuse. */
import fc from "fast-check";

/**
 * What a URL must get: `valid` must be accepted (and names `id`), `invalid`
 * must be refused with 400 and no outbound request, `either` is a form the
 * WHATWG URL parser normalises (default ports, tabs, full-width letters), for
 * which only "400 exactly when nothing went out" is required.
 */
export interface LabelledUrl {
  url: string;
  label: "valid" | "invalid" | "either";
  id: string;
}

export const UNAVAILABLE_ID = "unavailab01";
const NORMAL = "GJLlxj_dtq8";
const idArb = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(NORMAL, UNAVAILABLE_ID) },
  { weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z0-9_-]{11}$/) },
);
const badIdArb = fc.oneof(
  fc.constantFrom(
    "GJLlxj_dtq",
    "GJLlxj_dtq88",
    "GJLlxj.dtq8",
    "GJLlxj%dtq8",
    "GJLlxj dtq8",
    "GJLlxj+dtq8",
    "GJLlxj/dtq8",
    "",
    "ＧJLlxj_dtq8",
  ),
  fc.stringMatching(/^[A-Za-z0-9_-]{1,10}$/),
  fc.stringMatching(/^[A-Za-z0-9_-]{12,20}$/),
);

/** Host and the paths it serves, as a person would paste them. */
const FORMS: { host: string; paths: ((id: string) => string)[] }[] = [
  ...["youtube.com", "www.youtube.com", "m.youtube.com", "music.youtube.com", "WWW.YouTube.COM"].map((host) => ({
    host,
    paths: [
      (id: string) => `/watch?v=${id}`,
      (id: string) => `/watch?v=${id}&t=42s`,
      (id: string) => `/watch?feature=share&v=${id}&list=PL0123`,
      (id: string) => `/shorts/${id}`,
      (id: string) => `/embed/${id}`,
      (id: string) => `/live/${id}`,
      (id: string) => `/v/${id}`,
    ],
  })),
  { host: "youtu.be", paths: [(id) => `/${id}`, (id) => `/${id}?t=42`, (id) => `/${id}?si=AbC-123`] },
  { host: "www.youtube-nocookie.com", paths: [(id) => `/embed/${id}`, (id) => `/embed/${id}?start=10`] },
  { host: "youtube-nocookie.com", paths: [(id) => `/embed/${id}`] },
];

/** Hosts that merely look like YouTube: homoglyphs, suffix and prefix tricks, IPs, loopback. */
const EVIL_HOSTS = [
  "youtube.com.evil.example",
  "www.youtube.com.evil.example",
  "youtu.be.evil.example",
  "evil.example",
  "evilyoutube.com",
  "youtube.co",
  "youtube.com.",
  "wwwyoutube.com",
  "www-youtube.com",
  "youtube.evil.example",
  "xn--youtube-9za.com",
  "yоutube.com", /* Cyrillic o */
  "youtubе.com", /* Cyrillic e */
  "www.yοutube.com", /* Greek omicron */
  "youtu.bе",
  "127.0.0.1",
  "localhost",
  "[::1]",
  "0x7f000001",
  "2130706433",
  "169.254.169.254",
  "10.0.0.1",
  "[::ffff:127.0.0.1]",
  "youtube.com%2eevil.example",
  "youtube.com\\@evil.example",
  "evil.example\\.youtube.com",
  "youtube.com#@evil.example",
  "youtube.com?@evil.example",
  "youtube.com/..@evil.example",
];
/** Forms the URL parser maps onto a YouTube host: accepting or refusing them are both safe. */
const NORMALISED_HOSTS = ["ｙｏｕｔｕｂｅ.com", "youtube。com", "www.you\ttube.com", "www.you\ntube.com", "YOUTU.BE"];
const SCHEMES = ["https://", "http://", "HTTPS://", "hTTp://"];
const BAD_SCHEMES = [
  "javascript:",
  "javascript://",
  "data:text/html,https://",
  "file://",
  "ftp://",
  "ws://",
  "//",
  "",
  "https:/",
  "https:",
  "https:\\\\",
  "blob:https://",
  "view-source:https://",
  "httpss://",
  "http//",
];
const USERINFO = ["user@", "youtube.com@", "user:pass@", "www.youtube.com:443@", ":@"];
const BAD_PORTS = [":8080", ":1", ":3000", ":65535", ":0"];
const DEFAULT_PORTS: Record<string, string> = { "https://": ":443", "http://": ":80" };

const validArb: fc.Arbitrary<LabelledUrl> = fc
  .tuple(fc.constantFrom(...SCHEMES), fc.constantFrom(...FORMS), fc.nat(), idArb)
  .map(([scheme, form, n, id]) => ({
    url: `${scheme}${form.host}${form.paths[n % form.paths.length]!(id)}`,
    label: "valid",
    id,
  }));

/** Changes one part of a valid URL into something that must be refused. */
const invalidArb: fc.Arbitrary<LabelledUrl> = fc
  .tuple(
    fc.constantFrom(...SCHEMES),
    fc.constantFrom(...FORMS),
    fc.nat(),
    idArb,
    fc.integer({ min: 0, max: 5 }),
    fc.nat(),
    badIdArb,
  )
  .map(([scheme, form, n, id, part, pick, badId]) => {
    const path = form.paths[n % form.paths.length]!;
    const bad = (url: string): LabelledUrl => ({ url, label: "invalid", id });
    switch (part) {
      case 0:
        return bad(`${scheme}${EVIL_HOSTS[pick % EVIL_HOSTS.length]}${path(id)}`);
      case 1:
        return bad(`${BAD_SCHEMES[pick % BAD_SCHEMES.length]}${form.host}${path(id)}`);
      case 2:
        return bad(`${scheme}${USERINFO[pick % USERINFO.length]}${form.host}${path(id)}`);
      case 3:
        return bad(`${scheme}${form.host}${BAD_PORTS[pick % BAD_PORTS.length]}${path(id)}`);
      case 4:
        return bad(`${scheme}${form.host}${path(badId)}`);
      default:
        return bad(`${scheme}${form.host === "youtu.be" ? "www.youtube.com" : "youtu.be"}/watch/${id}`);
    }
  });

const eitherArb: fc.Arbitrary<LabelledUrl> = fc
  .tuple(fc.constantFrom("https://", "http://"), fc.nat(), idArb, fc.integer({ min: 0, max: 2 }))
  .map(([scheme, pick, id, part]) => {
    if (part === 0) {
      return { url: `${scheme}${NORMALISED_HOSTS[pick % NORMALISED_HOSTS.length]}/watch?v=${id}`, label: "either", id };
    }
    if (part === 1) {
      return { url: `${scheme}www.youtube.com${DEFAULT_PORTS[scheme]}/watch?v=${id}`, label: "either", id };
    }
    return { url: `  ${scheme}youtu.be/${id}/\t`, label: "either", id };
  });

/** Strings that are not URLs at all. */
const junkArb: fc.Arbitrary<LabelledUrl> = fc
  .oneof(
    fc.string({ maxLength: 60 }),
    fc.constantFrom(
      NORMAL,
      `www.youtube.com/watch?v=${NORMAL}`,
      `youtube.com/watch?v=${NORMAL}`,
      `youtu.be/${NORMAL}`,
      "javascript:alert(1)",
      "data:,hello",
      "about:blank",
      "https://",
      "http://[",
      "https://%zz/",
    ),
  )
  .filter((s) => !/^\s*https?:\/\//i.test(s) || !s.includes("you"))
  .map((url) => ({ url, label: "invalid" as const, id: "" }));

/** Every kind of `url` value, labelled with what the service must do. */
export const labelledUrl: fc.Arbitrary<LabelledUrl> = fc.oneof(
  { weight: 3, arbitrary: validArb },
  { weight: 5, arbitrary: invalidArb },
  { weight: 1, arbitrary: eitherArb },
  { weight: 1, arbitrary: junkArb },
);
