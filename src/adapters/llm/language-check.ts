import type { Language } from "../../domain/chat-request.ts";

/** Letters needed before a script share means anything. */
const MIN_SCRIPT_LETTERS = 30;
/** Letters needed before the trigram detector is trusted. */
const MIN_DETECTOR_LETTERS = 80;
/** How far behind the best guess the wanted language may score and still pass. */
const DETECTOR_MARGIN = 0.9;

const SCRIPTS: Record<"hi" | "ru" | "latin", RegExp> = {
  hi: /\p{Script=Devanagari}/u,
  ru: /\p{Script=Cyrillic}/u,
  latin: /\p{Script=Latin}/u,
};

/** ISO 639-3 codes of the Latin-script languages weighed against each other. */
const LATIN_CANDIDATES = ["eng", "spa", "por", "fra", "ita", "deu", "nld", "cat", "ron", "pol", "tur", "ind"];
const ISO3: Partial<Record<Language, string>> = { en: "eng", es: "spa", pt: "por" };

/**
 * Whether an answer is plainly in another language than the one asked for.
 * Hindi and Russian are told by script (Devanagari, Cyrillic); English,
 * Spanish and Portuguese first by script (Latin), then by franc's trigram
 * profiles among common Latin-script languages. The check leans towards
 * passing: text too short for a reliable verdict passes, and the wanted
 * language passes whenever it scores near the best guess (Spanish and
 * Portuguese are close). Timestamps, URLs and code are ignored.
 *
 * @param text the answer
 * @param language the language asked for
 * @returns true only when the text is confidently in another language
 */
export async function isWrongLanguage(text: string, language: Language): Promise<boolean> {
  const prose = text.replace(/\[[\d:]+\]|https?:\/\/\S+|`[^`]*`/g, " ");
  const letters = [...prose].filter((c) => /\p{L}/u.test(c));
  if (letters.length < MIN_SCRIPT_LETTERS) return false;
  const script = language === "hi" || language === "ru" ? SCRIPTS[language] : SCRIPTS.latin;
  const share = letters.filter((c) => script.test(c)).length / letters.length;
  if (share < 0.5) return true;
  const wanted = ISO3[language];
  if (!wanted || letters.length < MIN_DETECTOR_LETTERS) return false;
  const latin = [...prose].filter((c) => !/\p{L}/u.test(c) || SCRIPTS.latin.test(c)).join("");
  const { francAll } = await loadFranc();
  const scores = francAll(latin, { only: LATIN_CANDIDATES, minLength: 1 });
  const best = scores[0];
  if (!best || best[0] === "und" || best[0] === wanted) return false;
  const score = scores.find(([code]) => code === wanted)?.[1] ?? 0;
  return score < DETECTOR_MARGIN;
}

let franc: Promise<typeof import("franc-min")> | undefined;

/** franc's trigram profiles load on the first check: evaluating them is a fifth of the binary's start-up. */
function loadFranc(): Promise<typeof import("franc-min")> {
  franc ??= import("franc-min");
  return franc;
}
