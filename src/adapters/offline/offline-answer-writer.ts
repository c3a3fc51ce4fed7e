import type { AnswerWriter } from "../../domain/ports.ts";
import type { Passage } from "../../domain/passages.ts";
import { formatTimestamp } from "../../domain/transcript.ts";
import type { OutputFormat } from "../../domain/chat-request.ts";
import { centralPassages, relevantPassages } from "./extractive.ts";
import { PHRASES } from "./phrases.ts";

/**
 * The embedded engine used without an LLM key. It runs no model and writes
 * nothing of its own beyond one framing sentence: a summary is the
 * transcript's most central passages (TextRank), a question gets the
 * passages that share the most words with it (BM25), each quoted with its
 * timestamp, in transcript order. The response language comes from the
 * transcript track fetched in that language (YouTube's translation where the
 * video has no such track); when there was none, the answer says so.
 *
 * @returns the writer, named `offline`
 */
export function createOfflineAnswerWriter(): AnswerWriter {
  return {
    name: "offline",
    async write(spec) {
      const phrases = PHRASES[spec.language];
      const cues = spec.transcript.cues;
      let intro = phrases.summary;
      let picked: Passage[] = [];
      if (!spec.isSummary) {
        picked = relevantPassages(cues, spec.prompt);
        intro = picked.length > 0 ? phrases.question : phrases.noMatch;
      }
      if (picked.length === 0) picked = centralPassages(cues, spec.isSummary ? 10 : 3);
      const note = primary(spec.transcript.language) === spec.language ? [] : [phrases.otherLanguage];
      return { text: render([...note, intro], picked, spec.outputFormat), usage: { calls: 0, inputTokens: 0, outputTokens: 0 } };
    },
  };
}

function primary(code: string): string {
  return code.toLowerCase().split("-")[0] ?? code;
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
