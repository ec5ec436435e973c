import { formatLocation } from "./format.js";

/** One finding as a coding agent is handed it; text is raw (the template fences it). */
export interface HandoffFinding {
  severity: string;
  title: string;
  file: string;
  line: number;
  endLine: number;
  lenses: string;
  agreement: string;
  explanation: string;
  /** The replacement a model proposed for the lines, when it proposed one. */
  fix: string | null;
}

/** The commit the prompt is about, when known (the consensus comment knows its head SHA). */
export interface HandoffContext {
  headSha?: string | null;
}

/**
 * A self-contained prompt for a coding agent: where (file and lines), the problem, the proposed
 * fix, and how to check it. Written so an author can paste it into the agent they already use
 * and get the fix in one minute; it asks the agent to confirm the problem first, since a
 * finding is a model's claim, not a fact.
 */
export function fixHandoff(finding: HandoffFinding, context: HandoffContext = {}): string {
  return [
    "Fix one code-review finding (from Gadfly, an advisory multi-model review).",
    "",
    ...findingLines(finding, context),
    "",
    ...checkLines([finding]),
  ].join("\n");
}

/** One prompt for several findings (the consensus comment's open agreed findings). */
export function allFindingsHandoff(
  findings: readonly HandoffFinding[],
  context: HandoffContext = {},
): string {
  return [
    `Fix ${findings.length} code-review findings (from Gadfly, an advisory multi-model review), one at a time.`,
    ...findings.flatMap((finding, index) => [
      "",
      `## Finding ${index + 1} of ${findings.length}`,
      ...findingLines(finding, context),
    ]),
    "",
    ...checkLines(findings),
  ].join("\n");
}

function findingLines(finding: HandoffFinding, context: HandoffContext): string[] {
  const lines =
    finding.endLine > finding.line ? `${finding.line}-${finding.endLine}` : `${finding.line}`;
  const at = context.headSha ? ` (at commit ${context.headSha})` : "";
  return [
    `File: ${oneLine(finding.file)}`,
    `Lines: ${lines}${at}`,
    `Severity: ${finding.severity} · lens: ${finding.lenses} · models agreeing: ${finding.agreement}`,
    "",
    `Problem: ${oneLine(finding.title)}`,
    ...(finding.explanation.trim() === "" ? [] : [indented(finding.explanation.trim())]),
    "",
    "Proposed fix:",
    finding.fix === null
      ? "  The one the problem's explanation proposes; keep the change to these lines unless the problem needs more."
      : indented(finding.fix),
  ];
}

/** Model text under its label, indented: it reads as quoted, and no line of it starts the fence's line. */
function indented(text: string): string {
  return text
    .split(/\r?\n/)
    .map((line) => (line === "" ? line : `  ${line}`))
    .join("\n");
}

function checkLines(findings: readonly HandoffFinding[]): string[] {
  const files = [...new Set(findings.map((finding) => oneLine(finding.file)))];
  const where = findings
    .map((finding) => formatLocation(oneLine(finding.file), finding.line, finding.endLine))
    .join(", ");
  return [
    "How to check it:",
    `1. Read ${where} and confirm the problem is real before changing anything; if it is not, say why and change nothing.`,
    "2. Make the smallest change that fixes it, in the code's own style.",
    `3. Run the tests, type checker and linter that cover ${files.join(", ")}; add a test that fails without the fix where one is practical.`,
  ];
}

/** A title or a path on its one line of the prompt. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
