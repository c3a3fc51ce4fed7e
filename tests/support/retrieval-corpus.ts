/** @module The retrieval corpus: a two-hour documentary of planted facts, each asked in several ways and languages. */
import { readFileSync } from "node:fs";
import type { Language } from "../../src/domain/chat-request.ts";
import type { GeneratedCue } from "./long-transcript.ts";
import { isSearchCall, type LlmCall, requestedLanguage, searchQuestion } from "./fake/llm.ts";

/** One topic of the documentary: its own sentences, the fact it states, the ways it is asked, the model's guesses. */
export interface Topic {
  id: string;
  sentences: Record<Language, string[]>;
  fact: Record<Language, string>;
  /** `own`: English, in the fact's words; `other`: English sharing no content word with the topic; then natives'. */
  ask: { own: string; other: string } & Record<Exclude<Language, "en">, string>;
  /** What a competent model writes as search terms in each track language, from the question alone. */
  guess: Record<Language, string>;
}

export interface Corpus {
  provenance: string;
  /** A narrator's generic sentences, the same in every language, padding each topic to its minutes. */
  generic: Record<Language, string[]>;
  topics: Topic[];
}

export const CORPUS: Corpus = JSON.parse(
  readFileSync(new URL("../fixtures/retrieval/documentary.json", import.meta.url), "utf8"),
);

/** Seconds each topic lasts (the documentary: 40 topics of 3 minutes). */
export const TOPIC_SECONDS = 180;

/**
 * The documentary's cues in `language`: each topic its sentences and its fact, a generic sentence between each two,
 * then generic sentences to its end. Times come from the English words (about 2.5 a second), so every language's
 * cues share their times, as YouTube's translations do. The fact's place among the topic's sentences varies by topic.
 */
export function documentaryCues(language: Language, corpus: Corpus = CORPUS): GeneratedCue[] {
  const cues: GeneratedCue[] = [];
  let generic = 0;
  corpus.topics.forEach((topic, t) => {
    const start = t * TOPIC_SECONDS;
    const factAt = (t * 7) % (topic.sentences.en.length + 1);
    const own = topic.sentences.en.map((_, i) => i);
    own.splice(factAt, 0, -1);
    const order: ({ kind: "topic"; index: number } | { kind: "generic" })[] = [];
    for (const index of own) order.push({ kind: "topic", index }, { kind: "generic" });
    let at = start;
    const push = (en: string, text: string) => {
      const duration = Math.max(2, Math.round(en.split(/\s+/).length / 2.5));
      cues.push({ start: at, duration, text });
      at += duration;
    };
    for (const item of order) {
      if (item.kind === "generic") {
        const i = generic++ % corpus.generic.en.length;
        push(corpus.generic.en[i]!, corpus.generic[language][i]!);
      } else if (item.index < 0) push(topic.fact.en, topic.fact[language]);
      else push(topic.sentences.en[item.index]!, topic.sentences[language][item.index]!);
    }
    while (at < start + TOPIC_SECONDS - 2) {
      const i = generic++ % corpus.generic.en.length;
      push(corpus.generic.en[i]!, corpus.generic[language][i]!);
    }
  });
  return cues;
}

/** One way of asking: which question of each topic, and the `language` the request sets. */
export interface AskSet {
  name: string;
  question: (topic: Topic) => string;
  /** The request's `language`: the track read is in it, and so is the fact's sentence looked for. */
  language: Language;
}

const NATIVE = ["es", "pt", "ru", "hi"] as const;

/**
 * The sets of the bench: English in the transcript's words and in other words, each other language's native
 * question with `language` set to it, and the same questions with the default language (English).
 */
export const ASK_SETS: AskSet[] = [
  { name: "en, own words", question: (t) => t.ask.own, language: "en" },
  { name: "en, other words", question: (t) => t.ask.other, language: "en" },
  ...NATIVE.map((l): AskSet => ({ name: `${l}, language ${l}`, question: (t) => t.ask[l], language: l })),
  ...NATIVE.map((l): AskSet => ({ name: `${l}, language en (default)`, question: (t) => t.ask[l], language: "en" })),
];

/**
 * A competent model's search terms, as the fake plays it: the topic whose question the search call carries, its
 * guess in the track language the call asks for. The guesses were written from the questions alone (see the
 * corpus's provenance); a question the corpus does not hold gets its own words back.
 */
export function competentSearchReply(call: LlmCall, corpus: Corpus = CORPUS): string | undefined {
  if (!isSearchCall(call)) return undefined;
  const question = searchQuestion(call);
  const topic = corpus.topics.find((t) => Object.values(t.ask).some((asked) => fenceForm(asked) === question));
  const language = requestedLanguage(call) as Language;
  return topic?.guess[language] ?? question;
}

/** A question as the service fences it: on one line, angle brackets turned to angle quotes. */
function fenceForm(text: string): string {
  return text.replace(/[\r\n]+/g, " ").replace(/</g, "‹").replace(/>/g, "›");
}
