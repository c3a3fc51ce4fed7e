/** @module A conservative token-count estimate of a text for Llama 3 tokenizers, without a tokenizer. */
/**
 * A conservative estimate of how many tokens an LLM tokenizer (Llama 3's
 * 128k BPE, the family behind Groq's small models) makes of a text, without
 * shipping a tokenizer.
 *
 * Plain `chars / 4` undercounts: timestamps, digits and punctuation are
 * tokens of their own, and other scripts take fewer characters per token
 * (measured with the Llama 3 tokenizer on one paragraph in each language:
 * English 3.7 characters per token, Spanish 3.4, Portuguese and Russian 3.0,
 * Hindi 1.9). So each code point weighs by its class and the sum gets a 15 %
 * safety margin; tests/domain/reading/tokens.test.ts checks the estimate stays above
 * the real count for every supported language.
 */

const SAFETY = 1.15;

/** Tokens per code point for ranges `[from, to, weight]`; anything else weighs {@linkcode OTHER_WEIGHT}. */
const WEIGHTS: readonly (readonly [number, number, number])[] = [
  [0x61, 0x7a, 0.3], // a-z
  [0x41, 0x5a, 0.3], // A-Z
  [0x20, 0x20, 0.02], // space: merged into the next word's token
  [0x30, 0x39, 0.45], // digits: Llama 3 groups at most three
  [0x0a, 0x0a, 1], // newline
  [0x21, 0x7e, 0.6], // other ASCII: punctuation, brackets
  [0xc0, 0x24f, 1], // accented Latin letters split words
  [0x400, 0x4ff, 0.38], // Cyrillic
  [0x900, 0x97f, 0.62], // Devanagari
];
const OTHER_WEIGHT = 1.5;

/** Weights of the code points up to the last range, looked up rather than searched: plans count long transcripts. */
const TABLE = Float64Array.from({ length: 0x980 }, (_, code) => weightOf(code));

/**
 * @param text any text
 * @returns a token count at least as large as a Llama 3 tokenizer's, as a rule
 */
export function estimateTokens(text: string): number {
  let total = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < TABLE.length) total += TABLE[code]!;
    else {
      // A surrogate pair is one code point.
      if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
        const next = text.charCodeAt(i + 1);
        if (next >= 0xdc00 && next <= 0xdfff) i++;
      }
      total += OTHER_WEIGHT;
    }
  }
  return Math.ceil(total * SAFETY);
}

function weightOf(code: number): number {
  for (const [from, to, weight] of WEIGHTS) if (code >= from && code <= to) return weight;
  return OTHER_WEIGHT;
}

/** Tokens a chat template adds around each message (role markers). */
export const MESSAGE_OVERHEAD_TOKENS = 8;
