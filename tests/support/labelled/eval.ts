/** @module Runs an answer writer over the labelled cross-language set and scores it. */
/** Runs an answer writer over the labelled cross-language set (see set.ts). */
import type { Language } from "../../../src/domain/chat-request.ts";
import type { AnswerWriter, TranscriptSource } from "../../../src/domain/ports.ts";
import type { Transcript, TranscriptQuery } from "../../../src/domain/transcript.ts";
import { languageFacts } from "../../../src/domain/languages/languages.ts";
import { type LabelledCase, labelledCases, reviewCues, SET_LANGUAGES } from "./set.ts";

/** The review as YouTube would serve it for a video spoken in `spoken`: its own track, the others translated. */
export function reviewTranscript(spoken: Language, language: Language): Transcript {
  return {
    videoId: `review-${spoken}`,
    language,
    isGenerated: false,
    isTranslated: language !== spoken,
    videoLanguage: spoken,
    cues: reviewCues(language),
  };
}

/** A transcript source serving the review videos (`review-<spoken language>`) in any of the five languages. */
export class ReviewTracks implements TranscriptSource {
  calls: { videoId: string; query: TranscriptQuery }[] = [];
  async fetch(videoId: string, query: TranscriptQuery): Promise<Transcript> {
    this.calls.push({ videoId, query });
    const spoken = videoId.replace("review-", "") as Language;
    const wanted = query.languages[0] as Language;
    return reviewTranscript(spoken, SET_LANGUAGES.includes(wanted) ? wanted : spoken);
  }
}

/** How a writer did on the set. */
export interface SetScore {
  total: number;
  hits: number;
  /** Answers that said the video does not talk about the question. */
  notDiscussed: number;
  misses: LabelledCase[];
}

/**
 * Asks every labelled question, each about a video spoken in a third
 * language where there is one (so the quoted track is often a translation).
 *
 * @param writer the writer under test
 * @returns hits: answers quoting the expected sentence, under the "passages that match" framing
 */
export async function scoreOnSet(writer: AnswerWriter): Promise<SetScore> {
  const cases = labelledCases();
  const score: SetScore = { total: cases.length, hits: 0, notDiscussed: 0, misses: [] };
  for (const [i, item] of cases.entries()) {
    const spoken = SET_LANGUAGES[i % SET_LANGUAGES.length]!;
    const transcript = reviewTranscript(spoken, item.answer);
    const { text } = await writer.write({
      transcript,
      prompt: item.question,
      intent: "detail",
      language: item.answer,
      outputFormat: "text",
    });
    if (text.startsWith(languageFacts(item.answer).offlinePhrases.noMatch)) score.notDiscussed += 1;
    const quoted = text.split("\n").filter((line) => line.startsWith("["));
    if (
      text.startsWith(languageFacts(item.answer).offlinePhrases.question) &&
      quoted.some((line) => line.includes(item.expected))
    ) {
      score.hits += 1;
    } else score.misses.push(item);
  }
  return score;
}
