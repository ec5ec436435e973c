import { diffSide, formatLocation, type SuggestionView } from "../render/index.js";
import { terminalSafeText } from "./terminal-safe-text.js";

/**
 * A finding's checked suggestion for a terminal, under its explanation: what to change and who
 * proposed it, then the lines, `-` for the head's lines it replaces and `+` for what goes in.
 * One that passed says what was checked; one that failed says why it is not offered. Each line
 * keeps its indentation (the point of the check), with escape sequences stripped.
 */
export function suggestionText(
  view: SuggestionView | null,
  paint: (text: string, style: "green" | "yellow" | "dim") => string,
): string[] {
  if (view === null) return [];
  const where = formatLocation(
    terminalSafeText(view.file, { oneLine: true }),
    view.line,
    view.endLine,
  );
  const by = `proposed by ${view.supporters} of ${view.models} model${view.models === 1 ? "" : "s"}`;
  const checked = terminalSafeText(view.checked, { oneLine: true });
  const head = view.passed
    ? paint(`Suggested change to ${where} (${by}) — checked: ${checked}`, "green")
    : paint(
        `Proposed change to ${where} (${by}) — not offered as a suggestion: ${checked}`,
        "yellow",
      );
  const removed = diffSide(view.original, "- ", lineText);
  const added =
    view.lines.length === 0
      ? [paint("(the lines are deleted)", "dim")]
      : diffSide(view.lines, "+ ", lineText);
  return [head, ...removed, ...added];
}

/** One line of code as typed: escape sequences and control characters out, spaces kept. */
function lineText(line: string): string {
  return terminalSafeText(line).replace(/\n/g, " ").trimEnd();
}
