/** @module Detects Markdown and turns it into readable plain text with marked's lexer. */
import { Lexer, type Token, type Tokens } from "marked";

const MARKDOWN_SIGNS: readonly RegExp[] = [
  /^ {0,3}#{1,6}\s/m, // heading
  /\*\*\S[\s\S]*?\*\*|__\S[\s\S]*?__/, // strong
  /(^|[\s(])[*_][^*_\s][^*_\n]*[*_](?=$|[\s).,;:!?])/m, // emphasis
  /`/, // code
  /!?\[[^\]\n]+\]\([^)\s]+[^)]*\)/, // link, image
  /^ {0,3}\|?.*\|.*\n {0,3}\|? *:?-{3,}/m, // table
  /^ {0,3}[*+] \S/m, // star or plus bullet
  /^ {0,3}> /m, // block quote
  /~~\S[\s\S]*?~~/, // strike-through
];

/** @returns whether the text carries Markdown syntax that plain text must not have */
export function looksLikeMarkdown(text: string): boolean {
  return MARKDOWN_SIGNS.some((sign) => sign.test(text));
}

/**
 * Turns Markdown into readable plain text with marked's lexer: headings and
 * paragraphs become lines, lists stay lists (`- ` and `1. ` lines, nested
 * ones indented), table rows become `header: cell; header: cell` lines,
 * links keep their address in brackets, and emphasis, code marks and HTML
 * tags go.
 *
 * @param markdown the model's answer
 * @returns plain text with blank lines between blocks
 */
export function markdownToPlainText(markdown: string): string {
  const blocks = new Lexer({ gfm: true }).lex(markdown);
  return renderBlocks(blocks).join("\n").replace(/\n{3,}/g, "\n\n").trim();
}

function renderBlocks(tokens: readonly Token[]): string[] {
  const lines: string[] = [];
  for (const token of tokens) {
    const block = renderBlock(token);
    if (block.length === 0) continue;
    if (lines.length > 0) lines.push("");
    lines.push(...block);
  }
  return lines;
}

function renderBlock(token: Token): string[] {
  switch (token.type) {
    case "heading":
    case "paragraph":
      return inline((token as Tokens.Heading | Tokens.Paragraph).tokens).split("\n");
    case "text":
      return ("tokens" in token && token.tokens ? inline(token.tokens) : decode(token.text)).split("\n");
    case "list":
      return renderList(token as Tokens.List);
    case "table":
      return renderTable(token as Tokens.Table);
    case "blockquote":
      return renderBlocks((token as Tokens.Blockquote).tokens);
    case "code":
      return (token as Tokens.Code).text.split("\n");
    case "html":
      return stripTags(token.text).split("\n").filter((line) => line.trim() !== "");
    default:
      return []; // space, hr, def
  }
}

function renderList(list: Tokens.List): string[] {
  const first = typeof list.start === "number" ? list.start : 1;
  return list.items.flatMap((item, index) => {
    const marker = list.ordered ? `${first + index}.` : "-";
    const body = renderBlocks(item.tokens).filter((line) => line !== "");
    return body.map((line, i) => (i === 0 ? `${marker} ${line}` : `${" ".repeat(marker.length + 1)}${line}`));
  });
}

function renderTable(table: Tokens.Table): string[] {
  const headers = table.header.map((cell) => inline(cell.tokens));
  return table.rows.map((row) =>
    `- ${row.map((cell, i) => (headers[i] ? `${headers[i]}: ${inline(cell.tokens)}` : inline(cell.tokens))).join("; ")}`
  );
}

function inline(tokens: readonly Token[] | undefined): string {
  return (tokens ?? []).map(inlineToken).join("");
}

function inlineToken(token: Token): string {
  switch (token.type) {
    case "strong":
    case "em":
    case "del":
      return inline((token as Tokens.Strong).tokens);
    case "link": {
      const text = inline((token as Tokens.Link).tokens);
      return text === token.href || !token.href ? text : `${text} (${token.href})`;
    }
    case "image":
      return token.text;
    case "codespan":
      return decode(token.text);
    case "br":
      return "\n";
    case "html":
      return /^<br\s*\/?>$/i.test(token.text) ? "\n" : "";
    case "escape":
      return token.text;
    default:
      return "tokens" in token && token.tokens
        ? inline(token.tokens)
        : decode("text" in token ? String(token.text) : "");
  }
}

function stripTags(html: string): string {
  return decode(html.replace(/<[^>]*>/g, ""));
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", apos: "'", nbsp: " " };

function decode(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39|apos|nbsp);/g, (_, name: string) => ENTITIES[name]!);
}
