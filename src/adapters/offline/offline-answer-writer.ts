/** @module The offline answer writer used without an LLM key: quoted, timestamped transcript passages. */
import type { AnswerWriter, TranscriptSource } from "../../domain/ports.ts";
import type { Passage } from "../../domain/reading/passages.ts";
import { formatTimestamp } from "../../domain/transcript.ts";
import type { OutputFormat } from "../../domain/chat-request.ts";
import { languageFacts } from "../../domain/languages/languages.ts";
import { centralPassages, relevantPassages } from "./extractive.ts";
import { fetchOtherReading, primary } from "./other-reading.ts";

/**
 * The embedded engine used without an LLM key. It runs no model and writes
 * nothing of its own beyond one framing sentence: a summary, or any request
 * about the whole video, is the transcript's most central passages
 * (TextRank), a question about a detail gets the
 * passages that share the most words with it (BM25), each quoted with its
 * timestamp, in transcript order. The response language comes from the
 * transcript track fetched in that language (YouTube's translation where the
 * video has no such track); when there was none, the answer says so.
 *
 * A question is also matched against a second reading of the video (the
 * track in the question's language, else the video's own), aligned by time,
 * so that an English question finds its passage in a Spanish track: the
 * moment found in either is quoted from the response-language track.
 *
 * @param options.readings where a second reading is fetched (the cached
 *   transcript source); without it, questions are matched on one reading
 * @returns the writer, named `offline`
 */
export function createOfflineAnswerWriter(options: { readings?: TranscriptSource } = {}): AnswerWriter {
  return {
    name: "offline",
    async write(spec) {
      const phrases = languageFacts(spec.language).offlinePhrases;
      const cues = spec.transcript.cues;
      let intro = phrases.summary;
      let picked: Passage[] = [];
      let youtubeRequests = 0;
      if (spec.intent === "detail") {
        const other = await fetchOtherReading(options.readings, spec);
        youtubeRequests = other.youtubeRequests;
        picked = relevantPassages(cues, spec.prompt, 3, other.transcript ? [other.transcript.cues] : []);
        intro = picked.length > 0 ? phrases.question : phrases.noMatch;
      }
      if (picked.length === 0) picked = centralPassages(cues, spec.intent === "detail" ? 3 : 10);
      const note = primary(spec.transcript.language) === spec.language ? [] : [phrases.otherLanguage];
      spec.observer?.writerRequests?.(youtubeRequests);
      return {
        text: render([...note, intro], picked, spec.outputFormat),
        usage: { calls: 0, inputTokens: 0, outputTokens: 0, intent: spec.intent },
      };
    },
  };
}

function render(head: readonly string[], passages: readonly Passage[], format: OutputFormat): string {
  const lines = passages.map((p) => {
    const line = `[${formatTimestamp(p.start)}] ${p.text}`;
    return format === "markdown" ? `- ${escapeMarkdown(line)}` : line;
  });
  return `${head.join("\n\n")}\n\n${lines.join("\n")}`;
}

/** Transcript text is not Markdown: emphasis and code characters are escaped. */
function escapeMarkdown(line: string): string {
  return line.replace(/([\\`*_<>#|])/g, "\\$1");
}
