/** @module fast-check arbitraries of chat request bodies: fields in any order, odd keys, any JSON values. */
import fc from "fast-check";
import { type LabelledUrl, labelledUrl } from "./url-arbitrary.ts";

const FIELDS = ["url", "model", "prompt", "language", "output_format"];
const LANGUAGES = ["en", "hi", "es", "pt", "ru"];
const FORMATS = ["text", "markdown"];
/** Keys a body may carry besides the fields: typos, prototype tricks, look-alikes. */
const ODD_KEYS = [
  "langauge",
  "Language",
  "URL",
  "url ",
  " url",
  "outputFormat",
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "",
  "prompt\u0000",
  "ｕｒｌ",
];

/** Any JSON value, with strings of every Unicode kind. */
export const anyJson: fc.Arbitrary<unknown> = fc.jsonValue({ maxDepth: 4, depthSize: "small" });

/** Values a field may hold: its valid ones, near misses, and any JSON value. */
const fieldValue: Record<string, fc.Arbitrary<unknown>> = {
  url: fc.oneof({ weight: 6, arbitrary: labelledUrl }, { weight: 1, arbitrary: anyJson }),
  model: fc.oneof(fc.constant("chat-1.0"), fc.constantFrom("CHAT-1.0", "chat-1", "gpt-4", "", "chat-1.0 "), anyJson),
  prompt: fc.oneof(
    { weight: 3, arbitrary: fc.string({ maxLength: 80, unit: "binary" }) },
    fc.constantFrom("summary", " SUMMARY ", "", "   "),
    anyJson,
  ),
  language: fc.oneof(
    { weight: 2, arbitrary: fc.constantFrom(...LANGUAGES) },
    fc.constantFrom("EN", "fr", "en-US", "", "english", "e\u0301n"),
    anyJson,
  ),
  output_format: fc.oneof(
    { weight: 2, arbitrary: fc.constantFrom(...FORMATS) },
    fc.constantFrom("Markdown", "md", "html", "json", ""),
    anyJson,
  ),
};

/** One key-value pair of a body as written on the wire. */
export type Entry = [key: string, value: unknown];

/**
 * Object bodies as entry lists: the fields in any order, sometimes missing,
 * sometimes twice (the last one wins in JSON.parse), with odd extra keys.
 */
export const entriesArb: fc.Arbitrary<Entry[]> = fc
  .tuple(
    fc.subarray(FIELDS),
    fc.array(fc.constantFrom(...FIELDS), { maxLength: 2 }),
    fc.oneof({ weight: 3, arbitrary: fc.constant([] as string[]) }, {
      weight: 1,
      arbitrary: fc.array(fc.oneof(fc.constantFrom(...ODD_KEYS), fc.string({ maxLength: 8 })), {
        minLength: 1,
        maxLength: 2,
      }),
    }),
  )
  .chain(([fields, repeats, extras]) => {
    const keys = [...fields, ...repeats, ...extras];
    return fc.tuple(
      ...keys.map((key) =>
        (Object.hasOwn(fieldValue, key) ? fieldValue[key]! : anyJson).map((value) => [key, value] as Entry)
      ),
    ).chain((entries) => fc.shuffledSubarray(entries, { minLength: entries.length, maxLength: entries.length }));
  })
  .map((
    entries,
  ) => (entries.some(([k]) => k === "url")
    ? entries
    : [["url", { url: "https://youtu.be/GJLlxj_dtq8", label: "valid", id: "GJLlxj_dtq8" }] as Entry, ...entries])
  );

/** The JSON value of an entry (a labelled URL is sent as its string). */
export function wireValue(value: unknown): unknown {
  return isLabelled(value) ? value.url : value;
}

export function isLabelled(value: unknown): value is LabelledUrl {
  return typeof value === "object" && value !== null && "label" in value && "url" in value && "id" in value;
}

/**
 * Writes entries as JSON text by hand, so keys can repeat; keys are
 * sometimes written with `\u` escapes and the whitespace varies.
 */
export function writeEntries(entries: Entry[], style: { escapeKeys: boolean; space: string }): string {
  const key = (
    k: string,
  ) => (style.escapeKeys
    ? `"${k.split("").map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("")}"`
    : JSON.stringify(k));
  return `{${style.space}${
    entries.map(([k, v]) => `${key(k)}${style.space}:${style.space}${JSON.stringify(wireValue(v)) ?? "null"}`).join(
      `,${style.space}`,
    )
  }${style.space}}`;
}
