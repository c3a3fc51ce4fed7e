/** @module What the service needs to know of one answer language, and the scripts answers are written in. */

/**
 * The scripts the answer languages are written in, each as the letters that belong to it. A language in a new
 * script adds its script here (Japanese: Hiragana, Katakana and Han together).
 */
export const SCRIPTS = {
  latin: /\p{Script=Latin}/u,
  devanagari: /\p{Script=Devanagari}/u,
  cyrillic: /\p{Script=Cyrillic}/u,
} as const satisfies Record<string, RegExp>;

export type Script = keyof typeof SCRIPTS;

/** The few sentences the offline engine writes itself. */
export interface OfflinePhrases {
  /** Heads the key moments of a summary. */
  summary: string;
  /** Heads the passages that answer a question. */
  question: string;
  /** Heads the key moments when no passage matches the question. */
  noMatch: string;
  /** Said when no transcript in the response language could be had. */
  otherLanguage: string;
}

/**
 * Everything the service needs of one answer language: one entry of the language table (`languages.ts`), so a new
 * language is one file beside the others and one line there. The compiler asks for each field; the test of the table
 * checks what it cannot (a whisper and a detector that know the language, its words in its script, cues where a
 * script is shared).
 */
export interface LanguageFacts {
  /** Its name in English, as the LLM's prompts name it ("Always answer in Spanish (language code es)"). */
  name: string;
  /**
   * The script its answers are written in. An answer in another script is wrong at once; answers in Latin letters
   * are told apart by the language detector, so a Latin-script language must be one it knows.
   */
  script: Script;
  /** Its commonest function words, space-separated: dropped from the index terms passages are found by. */
  stopWords: string;
  /**
   * Its Snowball stemmer (a word, lower case, to its stem), so that a transcript read in it finds "paint" for
   * "painted" and "ферма" for "ферме". Applied to words in its own script only.
   */
  stem: (word: string) => string;
  /**
   * Words of a question that say nothing of its subject (verbs of saying and thinking, "video", the speaker),
   * space-separated: a question made only of them is not about the video's own subject.
   */
  genericWords: string;
  /**
   * What tells a short question written in it from one in another answer language of the same script: question and
   * function words the others do not use (space-separated), and letters only it uses. Needed only while another
   * answer language shares its script (the table's test says when).
   */
  questionCues?: { words: string; letters?: RegExp };
  /**
   * Phrases that make a prompt a request about the whole video, as regular-expression sources over the prompt folded
   * by `foldPrompt` (`src/domain/reading/intent.ts`): lower case, no Latin accents, `ё` as `е`, no Devanagari nukta,
   * hyphens as spaces, trailing punctuation gone (so `$` is the end of the last word). Each is matched as whole
   * words. They name what a reader asks of the whole: a summary, the main points, takeaways, an outline, chapters or
   * timestamps, what it is about, a list of everything of a kind, the overall argument or structure. Words that also
   * serve a detail ("main", "all", "chapter", "about") appear only in the phrases where they ask for the whole
   * ("main points", "list all", "chapters", "what is it about" at the end of the prompt). Every language's phrases
   * are tried on every prompt, whatever the answer language.
   */
  wholeVideoPhrases: readonly string[];
  /** The sentences the offline engine writes in it. */
  offlinePhrases: OfflinePhrases;
}
