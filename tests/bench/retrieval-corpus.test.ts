/** @module Checks the retrieval bench's corpus: complete, in each language's script, its "other words" truly other. */
import { describe, expect, test } from "bun:test";
import { stemmer } from "@orama/stemmers/english";
import { CORPUS, documentaryCues, TOPIC_SECONDS } from "../support/retrieval-corpus.ts";

const LANGUAGES = ["en", "es", "pt", "ru", "hi"] as const;
/** The function words the corpus's authors left out when comparing a question with its topic. */
const STOP = new Set(
  ("the of a what did they in is was how many which who when where why do does to for on at by with and or " +
    "it its their there this that these those be been have has had").split(" "),
);
const stems = (text: string) =>
  new Set(
    text.toLowerCase().split(/[^a-z]+/).filter((w) => w.length >= 3 && !STOP.has(w)).map((w) => stemmer(w)),
  );

describe("the retrieval corpus", () => {
  test("40 topics, each with five sentences, its fact, six questions and a guess in every language", () => {
    expect(CORPUS.provenance.length).toBeGreaterThan(40);
    expect(CORPUS.topics).toHaveLength(40);
    expect(new Set(CORPUS.topics.map((t) => t.id)).size).toBe(40);
    for (const language of LANGUAGES) expect(CORPUS.generic[language]).toHaveLength(40);
    for (const topic of CORPUS.topics) {
      for (const language of LANGUAGES) {
        expect(topic.sentences[language]).toHaveLength(5);
        expect(topic.fact[language].trim()).not.toBe("");
        expect(topic.guess[language].trim()).not.toBe("");
      }
      for (const ask of Object.values(topic.ask)) expect(ask.trim()).not.toBe("");
      expect(topic.fact.ru).toMatch(/\p{Script=Cyrillic}/u);
      expect(topic.fact.hi).toMatch(/\p{Script=Devanagari}/u);
    }
  });

  test("a question in other words shares no content word's stem with its topic's English text", () => {
    const sharing = CORPUS.topics.flatMap((topic) => {
      const text = stems([...topic.sentences.en, topic.fact.en].join(" "));
      const shared = [...stems(topic.ask.other)].filter((stem) => text.has(stem));
      return shared.length > 0 ? [`${topic.id}: ${shared.join(", ")}`] : [];
    });
    expect(sharing).toEqual([]);
  });

  test("the documentary lasts two hours, each fact once, at the same times in every language", () => {
    const english = documentaryCues("en");
    expect(english.at(-1)!.start).toBeGreaterThan(40 * TOPIC_SECONDS - 10);
    for (const language of LANGUAGES) {
      const cues = documentaryCues(language);
      expect(cues.map((c) => c.start)).toEqual(english.map((c) => c.start));
      for (const topic of CORPUS.topics) {
        expect(cues.filter((c) => c.text === topic.fact[language])).toHaveLength(1);
      }
    }
  });
});
