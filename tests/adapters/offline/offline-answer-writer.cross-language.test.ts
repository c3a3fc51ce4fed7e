/** @module Tests of the offline engine on the labelled cross-language set, with and without a second reading. */
import { describe, expect, test } from "bun:test";
import { createOfflineAnswerWriter } from "../../../src/adapters/offline/offline-answer-writer.ts";
import { relevantPassages } from "../../../src/adapters/offline/extractive.ts";
import { labelledCases, reviewCues, SET_LANGUAGES } from "../../support/labelled/set.ts";
import { ReviewTracks, scoreOnSet } from "../../support/labelled/eval.ts";

describe("the offline engine on the labelled cross-language set", () => {
  test("the set asks in each of the five languages about answers in each other one", () => {
    const cases = labelledCases();
    for (const asked of SET_LANGUAGES) {
      const answers = new Set(cases.filter((c) => c.asked === asked).map((c) => c.answer));
      expect([...answers].sort()).toEqual(SET_LANGUAGES.filter((l) => l !== asked).sort());
    }
    expect(cases.every((c) => c.asked !== c.answer)).toBe(true);
    expect(cases.length).toBeGreaterThanOrEqual(200);
  });

  test("one reading (the engine before a second reading) misses most questions asked in another language", async () => {
    const score = await scoreOnSet(createOfflineAnswerWriter());
    console.log(`labelled set, one reading: ${score.hits}/${score.total} found, ${score.notDiscussed} "not discussed"`);
    expect(score.hits / score.total).toBeLessThan(0.2);
  });

  test("with a second reading it finds the answer passage for at least 90% and never says the video is silent on it", async () => {
    const tracks = new ReviewTracks();
    const score = await scoreOnSet(createOfflineAnswerWriter({ readings: tracks }));
    console.log(
      `labelled set, two readings: ${score.hits}/${score.total} found, ${score.notDiscussed} "not discussed"`,
    );
    expect(score.hits / score.total).toBeGreaterThanOrEqual(0.9);
    expect(score.notDiscussed).toBe(0);
    // One extra reading per question, never more.
    expect(tracks.calls.length).toBeLessThanOrEqual(score.total);
    expect(tracks.calls.every((call) => call.query.rereading === true)).toBe(true);
  });
});

describe("relevantPassages() over two readings", () => {
  test("matches whenever either reading alone matches, for every question of the set on every pair of tracks", () => {
    const questions = [...new Set(labelledCases().map((c) => c.question))];
    const extra = ["battery?", "USB-C", "Surface Go", "quantum physics", "perro", "семь часов", "2 horas"];
    let checked = 0;
    for (const quoted of SET_LANGUAGES) {
      for (const other of SET_LANGUAGES) {
        if (other === quoted) continue;
        for (const question of [...questions, ...extra]) {
          const alone = relevantPassages(reviewCues(quoted), question).length +
            relevantPassages(reviewCues(other), question).length;
          const both = relevantPassages(reviewCues(quoted), question, 3, [reviewCues(other)]).length;
          expect(both > 0).toBe(alone > 0);
          checked += 1;
        }
      }
    }
    expect(checked).toBe(20 * (50 + 7));
  });
});
