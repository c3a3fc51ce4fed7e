/** @module Tests of the intent reading: the labelled corpus per language and kind, and the shape of the match. */
import { describe, expect, test } from "bun:test";
import { LANGUAGES } from "../../../src/domain/chat-request.ts";
import { aboutTheWholeSubject, asksWholeVideo, foldPrompt, readIntent } from "../../../src/domain/reading/intent.ts";
import type { Cue } from "../../../src/domain/transcript.ts";
import { generateCues, NEEDLE } from "../../support/long-transcript.ts";
import { corpusCases, type Kind } from "./intent-corpus/corpus.ts";

const cases = corpusCases();

/** Accuracy on the corpus per language the prompt is written in, each kind and both together. */
function accuracy() {
  const rows = LANGUAGES.map((language) => {
    const mine = cases.filter((c) => c.written === language);
    const right = (kind?: Kind) =>
      mine.filter((c) => (!kind || c.kind === kind) && readIntent(c.prompt) === c.kind).length;
    const count = (kind?: Kind) => mine.filter((c) => !kind || c.kind === kind).length;
    return {
      language,
      whole: [right("whole"), count("whole")],
      detail: [right("detail"), count("detail")],
      all: [right(), count()],
    };
  });
  const percent = ([right, total]: number[]) => `${right}/${total} (${((100 * right!) / total!).toFixed(1)} %)`;
  console.log(
    [
      "| Written in | Whole | Detail | Both |",
      "|---|---|---|---|",
      ...rows.map((r) => `| ${r.language} | ${percent(r.whole)} | ${percent(r.detail)} | ${percent(r.all)} |`),
    ].join("\n"),
  );
  return rows;
}

describe("readIntent() on the labelled corpus (tests/domain/reading/intent-corpus)", () => {
  test("holds at least 150 prompts, both kinds in every language, and prompts asking for another answer language", () => {
    expect(cases.length).toBeGreaterThanOrEqual(150);
    for (const language of LANGUAGES) {
      for (const kind of ["whole", "detail"] as const) {
        expect(cases.filter((c) => c.written === language && c.kind === kind).length).toBeGreaterThanOrEqual(15);
      }
      expect(cases.some((c) => c.written === language && c.answer !== language)).toBe(true);
    }
  });

  test("reads at least 95 % of the prompts right in every language, both kinds counted", () => {
    const rows = accuracy();
    const misread = cases.filter((c) => readIntent(c.prompt) !== c.kind).map((c) =>
      `${c.kind} ${c.written}: ${c.prompt}`
    );
    if (misread.length > 0) console.log(`read wrong:\n${misread.join("\n")}`);
    expect(rows.filter((r) => r.all[0]! / r.all[1]! < 0.95).map((r) => r.language)).toEqual([]);
  });

  test("reads no detail question as a whole-video request (the costly mistake on a small plan)", () => {
    const costly = cases.filter((c) => c.kind === "detail" && readIntent(c.prompt) !== "detail").map((c) => c.prompt);
    expect(costly).toEqual([]);
  });

  test("a prompt's answer language does not change how it is read: the same words give the same intent", () => {
    const byPrompt = new Map<string, Kind>();
    for (const c of cases) {
      if (byPrompt.has(c.prompt)) expect(c.kind).toBe(byPrompt.get(c.prompt)!);
      byPrompt.set(c.prompt, c.kind);
    }
    expect(cases.filter((c) => c.prompt === "Resume este video").map((c) => c.answer).sort()).toEqual(["es", "hi"]);
  });
});

describe("readIntent()", () => {
  test("`summary` in any case and spacing is the literal summary, whatever the transcript", () => {
    for (const prompt of ["summary", "  Summary ", "SUMMARY"]) {
      expect(readIntent(prompt, generateCues(600))).toBe("summary");
    }
  });

  test("a summary word in a longer prompt is a whole-video request, not the literal summary", () => {
    expect(readIntent("summary in Hindi")).toBe("whole");
    expect(readIntent("Summarize this video")).toBe("whole");
  });

  test("a summary of one topic is read as a whole-video request (the topic may come up anywhere)", () => {
    expect(readIntent("Summarise what he says about the battery")).toBe("whole");
    expect(readIntent("вкратце, что он говорит про батарею")).toBe("whole");
  });
});

describe("foldPrompt()", () => {
  test("drops Latin accents, ё, the Devanagari nukta and the punctuation at the ends; keeps Devanagari vowel signs", () => {
    expect(foldPrompt("¿De qué trata el vídeo?")).toBe("de que trata el video");
    expect(foldPrompt("О чём это видео?!")).toBe("о чем это видео");
    expect(foldPrompt("ज़रूरी बातें।")).toBe("जरूरी बातें");
    expect(foldPrompt("pontos-chave  do vídeo 🙏")).toBe("pontos chave do video");
  });

  test("matches whole words only: `सार` is not the start of `सारे`, `resume` not a part of another word", () => {
    expect(asksWholeVideo("सार")).toBe(true);
    expect(asksWholeVideo("क्या सारे चार्जर चलते हैं?")).toBe(false);
    expect(asksWholeVideo("presumen")).toBe(false);
  });
});

describe("aboutTheWholeSubject(): the shape of the match over the timeline", () => {
  // An hour of a review: a topic every ten minutes, the endings ("okay for the money") said all along it.
  const hour: Cue[] = generateCues(3600, { needleAt: 1800 });

  test("a question whose every word is said all along the video is about the whole video", () => {
    expect(aboutTheWholeSubject("Is it okay for the money?", hour)).toBe(true);
    expect(readIntent("Is it okay for the money?", hour)).toBe("whole");
  });

  test("a word said in one stretch only keeps the question a detail, even beside words said everywhere", () => {
    expect(aboutTheWholeSubject("How does the battery feel?", hour)).toBe(false);
    expect(aboutTheWholeSubject("Is the battery okay for the money?", hour)).toBe(false);
    expect(readIntent("What is the secret ingredient of the recipe?", hour)).toBe("detail");
    expect(NEEDLE).toContain("secret ingredient");
  });

  test("a word the video never says keeps it a detail; so do generic words alone, and a transcript too short to tell", () => {
    expect(aboutTheWholeSubject("Is the money okay for quantum physics?", hour)).toBe(false);
    expect(aboutTheWholeSubject("What does he say?", hour)).toBe(false);
    expect(aboutTheWholeSubject("Is it okay for the money?", generateCues(60))).toBe(false);
  });
});
