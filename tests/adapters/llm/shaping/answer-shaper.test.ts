/** @module Tests of the answer shaper: blocks and lines, unwrapping, language hold-back and release. */
import { describe, expect, test } from "bun:test";
import { AnswerShaper, type ShaperOptions } from "../../../../src/adapters/llm/shaping/answer-shaper.ts";
import { checkCitations } from "../../../../src/adapters/llm/shaping/citations.ts";
import { markdownToPlainText } from "../../../../src/adapters/llm/shaping/plain-text.ts";
import type { Cue } from "../../../../src/domain/transcript.ts";

const CUES: Cue[] = [
  { start: 1, duration: 5, text: "one" },
  { start: 65, duration: 5, text: "two" },
];

/** Feeds `text` in pieces of `size` characters; returns every emitted piece and the shaper. */
async function shape(
  text: string,
  size: number,
  options: Partial<ShaperOptions> = {},
): Promise<{ pieces: string[]; shaper: AnswerShaper }> {
  const pieces: string[] = [];
  const shaper = new AnswerShaper({ format: "text", cues: CUES, emit: (piece) => pieces.push(piece), ...options });
  for (let i = 0; i < text.length; i += size) await shaper.push(text.slice(i, i + size));
  await shaper.end();
  return { pieces, shaper };
}

const MARKDOWN =
  "## Summary\n\nThe **tablet** is light [0:01].\n\n* Screen\n* `Keyboard`\n\n```\ncode line\n\nmore code\n```\n\nEnd at [9:99] and [1:07].";

describe("AnswerShaper", () => {
  for (const size of [1, 3, 17, 1000]) {
    test(`text: every piece is plain, and the pieces join to the whole answer's plain text (pieces of ${size})`, async () => {
      const { pieces, shaper } = await shape(MARKDOWN, size);
      for (const piece of pieces) expect(piece).not.toMatch(/\*\*|^#|```|`|^\* /m);
      expect(pieces.join("")).toBe(shaper.text);
      expect(shaper.text).toBe(checkCitations(markdownToPlainText(MARKDOWN), CUES));
    });
  }

  test("text: a block goes out only once it is complete (a blank line after it)", async () => {
    const pieces: string[] = [];
    const shaper = new AnswerShaper({ format: "text", cues: CUES, emit: (piece) => pieces.push(piece) });
    await shaper.push("First **paragraph** [0:01].\nStill the first");
    expect(pieces).toEqual([]);
    await shaper.push(".\n\nSecond");
    expect(pieces).toEqual(["First paragraph [0:01].\nStill the first."]);
    await shaper.end();
    expect(pieces).toEqual(["First paragraph [0:01].\nStill the first.", "\n\nSecond"]);
  });

  test("markdown: line by line, Markdown kept, each line's citations checked", async () => {
    const { pieces, shaper } = await shape("- one [0:01]\n- two [5:00]\n\n**three** [1:06]", 2, { format: "markdown" });
    expect(pieces).toEqual(["- one [0:01]", "\n- two", "\n\n**three** [1:05]"]);
    expect(shaper.text).toBe("- one [0:01]\n- two\n\n**three** [1:05]");
  });

  test("a fence or <answer> tags around the whole answer are dropped; a closing one is held until the end", async () => {
    expect((await shape("```markdown\n# Title\n\nBody\n```", 4, { format: "markdown" })).shaper.text).toBe(
      "# Title\n\nBody",
    );
    expect((await shape("<answer>\nThe answer.\n</answer>", 3)).shaper.text).toBe("The answer.");
    expect((await shape("<answer>The answer.</answer>", 5, { format: "markdown" })).shaper.text).toBe("The answer.");
  });

  test("nothing goes out before the language check has judged 80 letters", async () => {
    const judged: string[] = [];
    const pieces: string[] = [];
    const shaper = new AnswerShaper({
      format: "markdown",
      cues: CUES,
      emit: (p) => pieces.push(p),
      isWrongLanguage: async (text) => (judged.push(text), false),
    });
    await shaper.push("Short line one.\nShort line two.\n");
    expect(pieces).toEqual([]);
    await shaper.push("A much longer third line that brings the count of letters well past eighty of them.\nFour");
    expect(judged).toHaveLength(1);
    expect(pieces.join("")).toBe(
      "Short line one.\nShort line two.\nA much longer third line that brings the count of letters well past eighty of them.",
    );
    await shaper.end();
    expect(shaper.text).toEndWith("\nFour");
  });

  test("an answer judged wrong sends nothing, holds it all, and releases it on request", async () => {
    const pieces: string[] = [];
    const shaper = new AnswerShaper({
      format: "text",
      cues: CUES,
      emit: (p) => pieces.push(p),
      isWrongLanguage: async () => true,
    });
    const text =
      "Este texto está em outra língua e tem letras suficientes para ser julgado pelo detector.\n\nSegundo parágrafo.";
    await shaper.push(text);
    await shaper.end();
    expect(shaper.wrong).toBe(true);
    expect(pieces).toEqual([]);
    shaper.release();
    expect(pieces.join("")).toBe(text);
  });

  test("a short answer is judged at its end", async () => {
    let judged = "";
    const { shaper } = await shape("Tiny.", 2, { isWrongLanguage: async (text) => ((judged = text), false) });
    expect(judged).toBe("Tiny.");
    expect(shaper.text).toBe("Tiny.");
  });
});
