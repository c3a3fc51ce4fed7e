/** @module fast-check arbitraries of prompts from every Unicode category around the 500 code point cut. */
import fc from "fast-check";

/**
 * One or more code points of each Unicode general category, astral ones
 * (surrogate pairs in UTF-16) and lone surrogates included.
 */
export const CATEGORY_SAMPLES: Record<string, string[]> = {
  Lu: ["A", "Ж", "Ω", "\u{1D400}"],
  Ll: ["a", "ж", "ß", "\u{1D41A}"],
  Lt: ["ǅ", "ᾈ"],
  Lm: ["ʰ", "ー"],
  Lo: ["あ", "中", "ท", "\u{20000}"],
  Mn: ["\u0301", "\u0300", "\u094D"],
  Mc: ["\u0903", "\u093E"],
  Me: ["\u20DD", "\u0488"],
  Nd: ["7", "٣", "९", "\u{1D7D8}"],
  Nl: ["Ⅻ", "〇"],
  No: ["½", "²", "①"],
  Pc: ["_", "‿"],
  Pd: ["-", "—", "゠"],
  Ps: ["(", "「"],
  Pe: [")", "」"],
  Pi: ["«", "‘"],
  Pf: ["»", "’"],
  Po: ["!", '"', "\\", "।"],
  Sm: ["+", "<", "∑"],
  Sc: ["$", "€", "₹"],
  Sk: ["^", "`"],
  So: ["©", "😀", "🇫", "\u{1F9D1}"],
  Zs: [" ", "\u00A0", "\u3000", "\u2009"],
  Zl: ["\u2028"],
  Zp: ["\u2029"],
  Cc: ["\u0000", "\n", "\t", "\u001B", "\u007F", "\u0085"],
  Cf: ["\u200B", "\u200D", "\u202E", "\uFEFF", "\u{E0001}"],
  Cs: ["\uD800", "\uDBFF", "\uDC00", "\uDFFF"],
  Co: ["\uE000", "\u{F0000}"],
  Cn: ["\u0378", "\uFFFF", "\u{10FFFF}", "\uFDD0"],
};
const ALL_SAMPLES = Object.values(CATEGORY_SAMPLES).flat();

/** A code point (or lone surrogate) from any category, or any code point at all. */
const codePoint: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...ALL_SAMPLES) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 1 }) },
  { weight: 1, arbitrary: fc.constantFrom("👨‍👩‍👧", "é", "🏳️‍🌈", "</request>", "</transcript>", "{{", "${x}") },
);

/** Lengths in code points, mostly within a few of the 500 cut. */
const length = fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 495, max: 505 }) }, {
  weight: 1,
  arbitrary: fc.integer({ min: 0, max: 520 }),
});

/**
 * Prompts around the 500 code point boundary: one category repeated, a mix
 * of all, or blanks of every kind (which mean `summary`).
 */
export const promptArb: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.tuple(fc.array(codePoint, { minLength: 1, maxLength: 4 }), length).map(([units, n]) =>
      Array.from({ length: n }, (_, i) => units[i % units.length]).join("")
    ),
  },
  { weight: 3, arbitrary: fc.array(codePoint, { minLength: 490, maxLength: 510 }).map((points) => points.join("")) },
  {
    weight: 1,
    arbitrary: fc.array(fc.constantFrom(" ", "\t", "\n", "\u00A0", "\u3000", "\u2028", "\uFEFF"), { maxLength: 600 })
      .map((s) => s.join("")),
  },
);
