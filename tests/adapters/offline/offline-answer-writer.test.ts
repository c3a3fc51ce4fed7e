/** @module Tests of the offline answer writer: summaries, questions, formats, languages and second readings. */
import { describe, expect, test } from "bun:test";
import { createOfflineAnswerWriter } from "../../../src/adapters/offline/offline-answer-writer.ts";
import type { AnswerSpec } from "../../../src/domain/ports.ts";
import type { Cue, Transcript, TranscriptQuery } from "../../../src/domain/transcript.ts";

const SENTENCES = [
  "Today we review the new tablet from top to bottom.",
  "The tablet screen is bright and sharp, and the tablet feels light.",
  "The battery lasts about seven hours of video playback.",
  "The keyboard cover is comfortable to type on for long sessions.",
  "My neighbour's dog barked all morning, sorry about the noise.",
  "The tablet price is fair, and the tablet screen makes it worth it.",
  "Thanks for watching and see you next time.",
];
const cues: Cue[] = SENTENCES.map((text, i) => ({ start: i * 10 + 0.5, duration: 9, text }));
const transcript: Transcript = {
  videoId: "GJLlxj_dtq8",
  language: "en",
  isGenerated: false,
  isTranslated: false,
  cues,
};
const spec = (overrides: Partial<AnswerSpec> = {}): AnswerSpec => ({
  transcript,
  prompt: "summary",
  intent: "summary",
  language: "en",
  outputFormat: "text",
  ...overrides,
});
const writer = createOfflineAnswerWriter();

describe("createOfflineAnswerWriter()", () => {
  test("summarises with the most central passages, in transcript order, with their timestamps", async () => {
    const told: number[] = [];
    const { text, usage } = await writer.write(spec({ observer: { writerRequests: (count) => told.push(count) } }));
    const lines = text.split("\n").filter((l) => l.startsWith("["));
    expect(lines).toHaveLength(3);
    expect(lines.join("\n")).toContain("[0:10] The tablet screen is bright");
    expect(lines.join("\n")).toContain("[0:50] The tablet price is fair");
    expect(text).not.toContain("dog barked");
    expect(lines.map((l) => l.slice(0, 5))).toEqual([...lines.map((l) => l.slice(0, 5))].sort());
    expect(usage).toEqual({ calls: 0, inputTokens: 0, outputTokens: 0, intent: "summary" });
    expect(told).toEqual([0]);
  });

  test("answers a request about the whole video with the key moments, as a summary, whatever its words match", async () => {
    const prompt = "Give me the main points of the tablet review";
    const whole = await writer.write(spec({ prompt, intent: "whole" }));
    expect(whole.text).toBe((await writer.write(spec())).text);
    expect(whole.usage?.intent).toBe("whole");
    const detail = await writer.write(spec({ prompt, intent: "detail" }));
    expect(detail.text).toStartWith("Passages of the video that best match your question:");
  });

  test("answers a question with the passages that match it", async () => {
    const { text } = await writer.write(spec({ prompt: "How many hours does the battery give?", intent: "detail" }));
    expect(text).toStartWith("Passages of the video that best match your question:");
    expect(text).toContain("[0:20] The battery lasts about seven hours of video playback.");
    expect(text).not.toContain("keyboard");
  });

  test("says when nothing matches and falls back to the key moments", async () => {
    const { text } = await writer.write(spec({ prompt: "Does it mention quantum physics?", intent: "detail" }));
    expect(text).toStartWith("The video does not seem to talk about this.");
    expect(text.split("\n").filter((l) => l.startsWith("[")).length).toBeGreaterThan(0);
  });

  test("writes Markdown bullets for markdown and plain lines for text", async () => {
    const markdown = (await writer.write(spec({ outputFormat: "markdown" }))).text;
    expect(markdown).toMatch(/^- \[0:10\] The tablet screen/m);
    const plain = (await writer.write(spec())).text;
    expect(plain).not.toMatch(/^- /m);
  });

  test("frames the answer in the response language and says when the transcript is in another", async () => {
    const hindi = await writer.write(
      spec({ language: "hi", transcript: { ...transcript, language: "hi", isTranslated: true } }),
    );
    expect(hindi.text).toStartWith("वीडियो के मुख्य अंश");
    const russian = await writer.write(spec({ language: "ru" }));
    expect(russian.text).toStartWith("Расшифровки на русском языке нет");
  });
});

describe("createOfflineAnswerWriter() with near-duplicates and a second reading", () => {
  const repeated = "The battery lasts about seven hours of video playback.";
  const echo: Cue[] = [
    ...SENTENCES.map((text, i) => ({ start: i * 10 + 0.5, duration: 9, text })),
    { start: 118, duration: 9, text: repeated },
    { start: 128, duration: 9, text: "The tablet screen is bright and sharp, and the tablet feels light, again." },
  ];
  const echoed: Transcript = { ...transcript, cues: echo };

  test("quotes a line the video repeats once, in summaries and in answers", async () => {
    for (
      const asked of [
        spec({ transcript: echoed }),
        spec({ transcript: echoed, prompt: "How long does the battery last?", intent: "detail" }),
      ]
    ) {
      const { text } = await writer.write(asked);
      expect(text.split(repeated).length - 1).toBeLessThanOrEqual(1);
      expect(text.split("The tablet screen is bright and sharp").length - 1).toBeLessThanOrEqual(1);
    }
    const answer =
      (await writer.write(spec({ transcript: echoed, prompt: "How long does the battery last?", intent: "detail" })))
        .text;
    expect(answer).toContain(`[0:20] ${repeated}`);
    expect(answer).not.toContain("[1:58]");
  });

  const spanish = [
    "Hoy analizamos la nueva tableta de arriba abajo.",
    "La pantalla es brillante y nítida, y la tableta es ligera.",
    "La batería dura unas siete horas de vídeo.",
    "La funda con teclado es cómoda para escribir mucho tiempo.",
    "El perro del vecino ladró toda la mañana, perdón por el ruido.",
    "El precio es justo, y la pantalla lo vale.",
    "Gracias por ver y hasta la próxima.",
  ];
  const enTrack: Transcript = { ...transcript, videoLanguage: "en" };
  const esTrack: Transcript = {
    ...transcript,
    language: "es",
    isTranslated: false,
    videoLanguage: "en",
    cues: spanish.map((text, i) => ({ start: i * 10 + 0.5, duration: 9, text })),
  };

  test("finds an English question's passage in the English track and quotes the Spanish one at that moment, counting the request", async () => {
    const asked: string[] = [];
    const readings = {
      fetch: async (
        _id: string,
        query: TranscriptQuery,
      ) => (asked.push(String(query.languages[0])), query.observer?.request?.(), enTrack),
    };
    const told: number[] = [];
    const answer = await createOfflineAnswerWriter({ readings }).write(
      spec({
        transcript: esTrack,
        language: "es",
        prompt: "How long does the battery last?",
        intent: "detail",
        observer: { writerRequests: (count) => told.push(count) },
      }),
    );
    expect(asked).toEqual(["en"]);
    expect(answer.text).toStartWith("Fragmentos del vídeo que mejor responden a tu pregunta:");
    expect(answer.text).toContain("[0:20] La batería dura unas siete horas de vídeo.");
    expect(answer.text).not.toContain("battery");
    expect(told).toEqual([1]);
    // Without the second reading (the engine before), the same question found nothing.
    expect(
      (await writer.write(
        spec({ transcript: esTrack, language: "es", prompt: "How long does the battery last?", intent: "detail" }),
      )).text,
    ).toStartWith("El vídeo no parece hablar de esto");
  });

  test("with no track in the response language, it keeps the honest sentence, quotes the video's language and reads nothing more", async () => {
    let fetched = 0;
    const readings = { fetch: async () => (fetched++, enTrack) };
    const answer = await createOfflineAnswerWriter({ readings }).write(
      spec({ transcript: enTrack, language: "hi", prompt: "How long does the battery last?", intent: "detail" }),
    );
    expect(answer.text).toStartWith("हिंदी में कोई ट्रांसक्रिप्ट उपलब्ध नहीं था");
    expect(answer.text).toContain("[0:20] The battery lasts about seven hours of video playback.");
    expect(fetched).toBe(0);
  });

  test("a summary reads no second track", async () => {
    let fetched = 0;
    const readings = { fetch: async () => (fetched++, enTrack) };
    const told: number[] = [];
    const observer = { writerRequests: (count: number) => told.push(count) };
    await createOfflineAnswerWriter({ readings }).write(spec({ transcript: esTrack, language: "es", observer }));
    expect(fetched).toBe(0);
    expect(told).toEqual([0]);
  });

  test("says the video does not talk about it only when no reading matches", async () => {
    const readings = { fetch: async () => enTrack };
    const answer = await createOfflineAnswerWriter({ readings }).write(
      spec({ transcript: esTrack, language: "es", prompt: "Does it mention quantum physics?", intent: "detail" }),
    );
    expect(answer.text).toStartWith("El vídeo no parece hablar de esto");
  });
});
