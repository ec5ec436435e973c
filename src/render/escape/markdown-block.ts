import { collectLinkDefinitions } from "./links.js";
import { escapeMarkdownLine } from "./markdown-line.js";
import { breakCommentOpeners, stripInvisibleCharacters } from "./text.js";

/* A whole untrusted markdown text (a lens's answer): code kept as code, every line escaped. */

interface Fence {
  marker: string;
  length: number;
  indent: number;
}

type Line = { kind: "code"; text: string } | { kind: "text"; text: string };

const OPENING_FENCE = /^(`{3,}|~{3,})(.*)$/;
const DELIMITER_CELL = /^:?-+:?$/;

/**
 * Multi-line markdown from a model (a lens's text, a finding's body) made safe to
 * embed in our comment: the markdown is kept, but no HTML is live (so no comment,
 * marker or `</details>` can close or hide what follows), no image loads, every
 * link shows its real target (reference definitions included), mentions are
 * defused, bidi controls removed and any code fence left open is closed.
 *
 * Where the text is ambiguous (fences inside list items, tables) the escaping errs
 * towards treating code as text: the worst outcome is a visible `&lt;` in code.
 */
export function escapeMarkdownBlock(text: string): string {
  const lines = classifyLines(stripInvisibleCharacters(text, { zeroWidth: false }).split("\n"));
  const inTable = tableLines(lines);
  const definitions = collectLinkDefinitions(
    lines.filter((line) => line.kind === "text").map((line) => line.text),
  );
  return lines
    .map((line, index) =>
      line.kind === "code"
        ? breakCommentOpeners(line.text)
        : escapeMarkdownLine(line.text, {
            pipesSplitCodeSpans: inTable[index] ?? true,
            keepLineBreaks: true,
            definitions,
          }),
    )
    .join("\n");
}

/** Splits lines into code (inside fences) and text, rewriting fences so they close where we think. */
function classifyLines(lines: string[]): Line[] {
  const result: Line[] = [];
  let fence: Fence | null = null;
  for (const line of lines) {
    if (fence !== null) {
      if (line.trim() === "") {
        result.push({ kind: "code", text: line });
        continue;
      }
      const trimmed = line.trim();
      if (isClosingFence(trimmed, fence)) {
        // Re-indented to the opening fence's column: it then closes the fence whether
        // the fence sits in a list item or not, as it does for us.
        result.push({ kind: "code", text: " ".repeat(fence.indent) + trimmed });
        fence = null;
        continue;
      }
      if (indentation(line) >= fence.indent) {
        result.push({ kind: "code", text: line });
        continue;
      }
      // A less indented line may end a list item, and with it the fence: close it
      // explicitly so that every renderer agrees the line below is text.
      result.push({ kind: "code", text: closingFence(fence) });
      fence = null;
    }
    const opening = openingFence(line);
    if (opening !== null) {
      fence = opening;
      result.push({ kind: "code", text: line });
    } else {
      result.push({ kind: "text", text: line });
    }
  }
  if (fence !== null) result.push({ kind: "code", text: closingFence(fence) });
  return result;
}

function openingFence(line: string): Fence | null {
  const indent = indentation(line);
  if (indent > 3) return null;
  const match = OPENING_FENCE.exec(line.trimStart());
  if (match === null) return null;
  const run = match[1] ?? "";
  const marker = run.charAt(0);
  // CommonMark: a backtick fence's info string may not contain a backtick.
  if (marker === "`" && (match[2] ?? "").includes("`")) return null;
  return { marker, length: run.length, indent };
}

function isClosingFence(trimmed: string, fence: Fence): boolean {
  return trimmed.length >= fence.length && [...trimmed].every((c) => c === fence.marker);
}

function closingFence(fence: Fence): string {
  return " ".repeat(fence.indent) + fence.marker.repeat(fence.length);
}

/** Leading columns, a tab advancing to the next multiple of four. */
function indentation(line: string): number {
  let columns = 0;
  for (const character of line) {
    if (character === " ") columns += 1;
    else if (character === "\t") columns += 4 - (columns % 4);
    else break;
  }
  return columns;
}

/** Marks every text line of a paragraph that holds a table delimiter row. */
function tableLines(lines: Line[]): boolean[] {
  const marks = new Array<boolean>(lines.length).fill(false);
  let start = 0;
  for (let index = 0; index <= lines.length; index += 1) {
    const line = lines[index];
    const breaks = line === undefined || line.kind === "code" || line.text.trim() === "";
    if (!breaks) continue;
    const paragraph = lines.slice(start, index);
    if (paragraph.some((item) => isDelimiterRow(item.text))) marks.fill(true, start, index);
    start = index + 1;
  }
  return marks;
}

/** A GFM table delimiter row (`|---|:--:|`), possibly inside a quote or a list item. */
function isDelimiterRow(line: string): boolean {
  const unquoted = line.replace(/^[\s>]*/, "");
  const unlisted = unquoted.replace(/^(?:[-*+]|\d{1,9}[.)])\s+/, "");
  return [unquoted, unlisted].some((row) => {
    const cells = row.trim().replace(/^\|/, "").replace(/\|$/, "").split("|");
    return cells.every((cell) => DELIMITER_CELL.test(cell.trim()));
  });
}
