/** @module Tests of Markdown to plain text conversion and of Markdown detection. */
import { describe, expect, test } from "bun:test";
import { looksLikeMarkdown, markdownToPlainText } from "../../../../src/adapters/llm/shaping/plain-text.ts";

const MARKDOWN = [
  "# Summary",
  "",
  "The reviewer likes the **screen** and the *keyboard* [0:05]. See [the page](https://example.com/surface) and `Type Cover`.",
  "",
  "## Points",
  "",
  "* Light and small",
  "* Good value",
  "  1. base model",
  "  2. upgraded model",
  "",
  "| Part | Verdict |",
  "|---|---|",
  "| Screen | Bright |",
  "| Battery | Fair |",
  "",
  "> A quote from the video",
  "",
  "```",
  "not code really",
  "```",
].join("\n");

describe("markdownToPlainText()", () => {
  const plain = markdownToPlainText(MARKDOWN);

  test("leaves no Markdown syntax behind", () => {
    expect(plain).not.toMatch(/\*\*|`|^#|\]\(|^\|.*\||^>|^\* /m);
    expect(looksLikeMarkdown(plain)).toBe(false);
  });

  test("keeps the structure readable: headings as lines, lists as lists, table rows as lines", () => {
    expect(plain).toContain("Summary\n\nThe reviewer likes the screen and the keyboard [0:05].");
    expect(plain).toContain("- Light and small\n- Good value\n  1. base model\n  2. upgraded model");
    expect(plain).toContain("- Part: Screen; Verdict: Bright\n- Part: Battery; Verdict: Fair");
    expect(plain).toContain("the page (https://example.com/surface)");
    expect(plain).toContain("A quote from the video");
    expect(plain).toContain("not code really");
  });

  test("keeps timestamps and decodes entities", () => {
    expect(markdownToPlainText("**Fish &amp; chips** at [1:02:03]")).toBe("Fish & chips at [1:02:03]");
  });
});

describe("looksLikeMarkdown()", () => {
  test("spots each kind of Markdown syntax", () => {
    for (
      const text of [
        "# Title",
        "a **bold** word",
        "an *emphasised* word",
        "some `code`",
        "[link](https://x.example)",
        "| a | b |\n|---|---|",
        "* item",
        "> quote",
      ]
    ) {
      expect(looksLikeMarkdown(text)).toBe(true);
    }
  });

  test("leaves plain text alone: hyphen lists, arithmetic, snake_case, timestamps", () => {
    for (
      const text of [
        "Points:\n- one\n- two",
        "5 * 3 = 15",
        "snake_case_name",
        "At [0:05] he says so.",
        "1. first\n2. second",
      ]
    ) {
      expect(looksLikeMarkdown(text)).toBe(false);
    }
  });
});
