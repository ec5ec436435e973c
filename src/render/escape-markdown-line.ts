import { neutralizeMarkers } from "./neutralize-markers.js";
import { neutralizeMentions } from "./neutralize-mentions.js";

export interface LineEscapeOptions {
  /** Inside a table cell: every `|` becomes `\|`, code spans included (GFM unescapes them). */
  tableCell?: boolean;
  /**
   * The line may be a row of a table in the text: GFM splits rows at `|` before
   * it sees code spans, so a code span must not be trusted across a `|`.
   */
  pipesSplitCodeSpans?: boolean;
  /** Keep `<br>` when text follows it on the line (it cannot start an HTML block there). */
  keepLineBreaks?: boolean;
  /** Template text follows the line: a trailing backslash must not escape it. */
  embedded?: boolean;
}

const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/;
const LINE_BREAK_TAG = /^<br\s*\/?>/i;

/**
 * Escapes one line of markdown text (not code) so it renders as written but can
 * open no HTML (every `<` becomes `&lt;`), ping no one, and leave no backtick
 * unpaired. Code spans closed on the same line are kept verbatim.
 */
export function escapeMarkdownLine(line: string, options: LineEscapeOptions = {}): string {
  const closers = codeSpanClosers(line);
  let output = "";
  let plain = "";
  let index = 0;
  while (index < line.length) {
    const character = line.charAt(index);
    if (character === "\\") {
      const next = line.charAt(index + 1);
      if (next !== "" && ASCII_PUNCTUATION.test(next)) {
        // `\<` renders as `<` anyway; as `&lt;` the raw body holds no `<` outside code.
        plain += next === "<" ? "&lt;" : character + next;
        index += 2;
      } else {
        plain += next === "" && options.embedded ? "\\\\" : character;
        index += 1;
      }
      continue;
    }
    if (character === "`") {
      const run = runLength(line, index);
      const end = closers.next(index, run);
      const content = end === -1 ? "" : line.slice(index + run, end);
      if (end !== -1 && !(options.pipesSplitCodeSpans && content.includes("|"))) {
        output += neutralizeMentions(plain);
        plain = "";
        const span = neutralizeMarkers(line.slice(index, end + run));
        output += options.tableCell ? span.replaceAll("|", "\\|") : span;
        index = end + run;
      } else {
        plain += "\\`".repeat(run);
        index += run;
      }
      continue;
    }
    if (character === "<") {
      const tag = options.keepLineBreaks ? LINE_BREAK_TAG.exec(line.slice(index, index + 8)) : null;
      if (tag !== null && line.slice(index + tag[0].length).trim() !== "") {
        plain += tag[0];
        index += tag[0].length;
      } else {
        plain += "&lt;";
        index += 1;
      }
      continue;
    }
    plain += character === "|" && options.tableCell ? "\\|" : character;
    index += 1;
  }
  return output + neutralizeMentions(plain);
}

function runLength(line: string, start: number): number {
  let end = start;
  while (line.charAt(end) === "`") end += 1;
  return end - start;
}

/**
 * Finds, for a backtick run, the next run of exactly the same length (CommonMark's
 * closing rule) in amortised constant time, so a line of stray backticks stays linear.
 */
function codeSpanClosers(line: string): { next(start: number, length: number): number } {
  const startsByLength = new Map<number, number[]>();
  let index = line.indexOf("`");
  while (index !== -1) {
    const run = runLength(line, index);
    const starts = startsByLength.get(run) ?? [];
    starts.push(index);
    startsByLength.set(run, starts);
    index = line.indexOf("`", index + run);
  }
  const cursors = new Map<number, number>();
  return {
    next(start, length) {
      const starts = startsByLength.get(length) ?? [];
      let cursor = cursors.get(length) ?? 0;
      while (cursor < starts.length && (starts[cursor] ?? Infinity) <= start) cursor += 1;
      cursors.set(length, cursor);
      return starts[cursor] ?? -1;
    },
  };
}
