import type { ChangedLineIndex } from "../diff/index.js";
import { applyReplacement, type HeadFile, replacementLines } from "./head-file.js";
import { indentationProblem } from "./indentation-problem.js";
import type { SuggestionOutcome } from "./suggestion-outcome.js";
import type { SyntaxChecker } from "./syntax-checker.js";

/** One proposed replacement of a cluster, with the models that proposed it. */
export interface SuggestionCandidate {
  file: string;
  line: number;
  endLine: number;
  text: string;
  supporters: string[];
}

/** The head file as read for the check, or why it could not be read. */
export type HeadRead = { head: HeadFile; text: string } | { problem: string };

/**
 * Characters that make code read other than it runs (Trojan Source), hide in it, or control a
 * terminal: the ones the renderer strips from what it shows (render/escape/text.ts), so a
 * suggestion committed as is can never hold what its reader could not see.
 */
const HIDDEN_RE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
  /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u00AD\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2069\uFEFF]/;
/** Our marker comments: a body holding one would be read as another finding's comment. */
const MARKER_RE = /<!--\s*gadfly-/i;
/** A line worth calling duplicated: some word in it, not a lone brace or a blank. */
const SUBSTANTIAL_RE = /[A-Za-z0-9_$]/;

/**
 * Checks one replacement against the diff and the head file, in the order a reader would ask:
 * can GitHub apply it at all (one hunk of the RIGHT side), is it replacement text (no diff
 * markers, no hidden characters, not the code as it is), does it change only its own lines (no
 * line repeated from just above or below), is it indented as the code around it, and does the
 * resulting file parse as well as the head did (tree-sitter; ERROR and MISSING nodes counted,
 * since a head file may already hold some). The first failure is the reason given.
 */
export async function checkSuggestion(
  candidate: SuggestionCandidate,
  read: HeadRead,
  index: ChangedLineIndex,
  syntax: SyntaxChecker,
): Promise<SuggestionOutcome> {
  const { file, line, endLine, supporters } = candidate;
  const lines = replacementLines(candidate.text);
  const original =
    "head" in read && endLine <= read.head.lines.length
      ? read.head.lines.slice(line - 1, endLine)
      : [];
  const base = { file, line, endLine, supporters, lines: lines ?? [], original };
  const fail = (reason: string): SuggestionOutcome => ({ kind: "failed", ...base, reason });
  const range = rangeProblem(candidate, index);
  if (range !== null) return fail(range);
  if (lines === null) return fail("it holds a carriage return inside a line.");
  if ("problem" in read) return fail(`the head file could not be read: ${read.problem}.`);
  const { head } = read;
  if (endLine > head.lines.length) {
    return fail(
      `the head file has ${head.lines.length} lines, so lines ${span(line, endLine)} do not exist.`,
    );
  }
  const textual = textProblem(lines, original, head, line, endLine);
  if (textual !== null) return fail(textual);
  const indentation = indentationProblem(lines, original, head, line);
  if (indentation !== null) return fail(indentation);
  const result = applyReplacement(head, line, endLine, lines);
  const before = await syntax.count(file, read.text);
  if (before === null) {
    return {
      kind: "passed",
      ...base,
      grammar: null,
      syntaxNote: `no parser ships for this kind of file, so its syntax was not checked`,
    };
  }
  const after = await syntax.count(file, result);
  if (after !== null && after.errors > before.errors) {
    // The first error from the replaced lines on: the head's own may come before.
    const near = after.errorLines.find((at) => at >= line) ?? after.errorLines[0];
    const at = near === undefined ? "" : ` (first at line ${near})`;
    return fail(
      `the file would no longer parse as ${before.grammar}: ${after.errors - before.errors} syntax error${after.errors - before.errors === 1 ? "" : "s"} more than the head has${at}.`,
    );
  }
  if (before.errors > 0) {
    // Error recovery can fold a new error into one the head already has: no count proves it.
    return {
      kind: "passed",
      ...base,
      grammar: null,
      syntaxNote: `the head file already has ${before.errors} syntax error${before.errors === 1 ? "" : "s"} as ${before.grammar}, so a new one could hide among them`,
    };
  }
  return { kind: "passed", ...base, grammar: before.grammar };
}

/** GitHub applies a suggestion only to lines of one hunk of the RIGHT side. */
function rangeProblem(candidate: SuggestionCandidate, index: ChangedLineIndex): string | null {
  const { file, line, endLine } = candidate;
  const first = index.hunkAt(file, line);
  const last = index.hunkAt(file, endLine);
  if (first === null || last === null) {
    return `lines ${span(line, endLine)} are not all inside the diff, and GitHub applies a suggestion only to lines of one hunk.`;
  }
  if (first.hunkIndex !== last.hunkIndex) {
    return `lines ${span(line, endLine)} span two hunks of the diff (${span(first.start, first.end)} and ${span(last.start, last.end)}), and GitHub applies a suggestion only within one.`;
  }
  return null;
}

/** Replacement text, changing its own lines only. */
function textProblem(
  lines: readonly string[],
  original: readonly string[],
  head: HeadFile,
  line: number,
  endLine: number,
): string | null {
  const joined = lines.join("\n");
  if (MARKER_RE.test(joined)) return "it holds Gadfly's own marker comment text.";
  if (HIDDEN_RE.test(joined) && !HIDDEN_RE.test(original.join("\n"))) {
    return "it holds invisible or bidirectional control characters that the code does not.";
  }
  if (readsAsDiff(lines) && !readsAsDiff(original)) {
    return "it reads as a diff (lines starting with + and -), not as the replacement code.";
  }
  if (lines.length === original.length && lines.every((text, at) => text === original[at])) {
    return "it is the code as it already is.";
  }
  const above = head.lines[line - 2];
  const first = lines[0];
  if (
    above !== undefined &&
    first !== undefined &&
    SUBSTANTIAL_RE.test(above) &&
    first.trim() === above.trim() &&
    original[0]?.trim() !== above.trim()
  ) {
    return `its first line repeats line ${line - 1}, just above the lines it replaces: applied, that line would be there twice.`;
  }
  const below = head.lines[endLine];
  const last = lines.at(-1);
  if (
    below !== undefined &&
    last !== undefined &&
    SUBSTANTIAL_RE.test(below) &&
    last.trim() === below.trim() &&
    original.at(-1)?.trim() !== below.trim()
  ) {
    return `its last line repeats line ${endLine + 1}, just below the lines it replaces: applied, that line would be there twice.`;
  }
  return null;
}

/** Every non-blank line starts with `+` or `-` and one is a `@@` header or both kinds appear. */
function readsAsDiff(lines: readonly string[]): boolean {
  const written = lines.filter((text) => text.trim() !== "");
  if (written.length === 0) return false;
  if (written.some((text) => text.startsWith("@@ "))) return true;
  return (
    written.every((text) => /^[+-]/.test(text)) &&
    written.some((text) => text.startsWith("+")) &&
    written.some((text) => text.startsWith("-"))
  );
}

export function span(line: number, endLine: number): string {
  return line === endLine ? `${line}` : `${line}–${endLine}`;
}
