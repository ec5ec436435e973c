import { lineDiff } from "./line-diff.js";

export interface Patch {
  /** Hunks as in GitHub's `patch` field: starts at `@@`, no trailing newline; "" when equal. */
  text: string;
  additions: number;
  deletions: number;
  /** Share of lines kept, 0–100, for `similarity index` of renames. */
  similarity: number;
}

const noNewlineMarker = "\\ No newline at end of file";

/** Unified-diff hunks (git's layout and header rules) between two texts. */
export function buildPatch(before: string, after: string, contextLines = 3): Patch {
  const oldLines = splitLines(before);
  const newLines = splitLines(after);
  // A last line without its newline differs from the same line with one.
  const operations = lineDiff(oldLines.tokens, newLines.tokens);
  const changeIndexes: number[] = [];
  operations.forEach((operation, index) => {
    if (operation.kind !== "equal") changeIndexes.push(index);
  });
  const kept = operations.length - changeIndexes.length;
  const similarity = Math.round(
    (100 * kept) / Math.max(1, oldLines.tokens.length, newLines.tokens.length),
  );
  if (changeIndexes.length === 0) return { text: "", additions: 0, deletions: 0, similarity };

  const output: string[] = [];
  let additions = 0;
  let deletions = 0;
  let groupStart = 0;
  while (groupStart < changeIndexes.length) {
    let groupEnd = groupStart;
    while (
      groupEnd + 1 < changeIndexes.length &&
      (changeIndexes[groupEnd + 1] ?? 0) - (changeIndexes[groupEnd] ?? 0) - 1 <= 2 * contextLines
    ) {
      groupEnd++;
    }
    const first = Math.max(0, (changeIndexes[groupStart] ?? 0) - contextLines);
    const last = Math.min(operations.length - 1, (changeIndexes[groupEnd] ?? 0) + contextLines);
    const body: string[] = [];
    let oldCount = 0;
    let newCount = 0;
    let oldBefore = 0;
    let newBefore = 0;
    // Lines of each side that precede the hunk give the header's start lines.
    for (const operation of operations.slice(0, first)) {
      if (operation.kind !== "insert") oldBefore++;
      if (operation.kind !== "delete") newBefore++;
    }
    for (const operation of operations.slice(first, last + 1)) {
      if (operation.kind === "equal") {
        oldCount++;
        newCount++;
        pushLine(body, " ", oldLines.tokens[operation.oldIndex] ?? "");
      } else if (operation.kind === "delete") {
        oldCount++;
        deletions++;
        pushLine(body, "-", oldLines.tokens[operation.oldIndex] ?? "");
      } else {
        newCount++;
        additions++;
        pushLine(body, "+", newLines.tokens[operation.newIndex] ?? "");
      }
    }
    const heading = functionHeading(oldLines.tokens, oldBefore);
    output.push(
      `@@ -${range(oldBefore, oldCount)} +${range(newBefore, newCount)} @@${heading}`,
      ...body,
    );
    groupStart = groupEnd + 1;
  }
  return { text: output.join("\n"), additions, deletions, similarity };
}

function pushLine(body: string[], prefix: string, token: string): void {
  if (token.endsWith("\n")) {
    body.push(prefix + token.slice(0, -1));
  } else {
    body.push(prefix + token, noNewlineMarker);
  }
}

// git omits the count when it is 1, and names the line before when it is 0.
function range(linesBefore: number, count: number): string {
  if (count === 0) return `${linesBefore},0`;
  if (count === 1) return `${linesBefore + 1}`;
  return `${linesBefore + 1},${count}`;
}

// git's default "function name" after the header: the nearest line above the
// hunk that starts with a letter, `_` or `$`, cut to 80 characters.
function functionHeading(oldTokens: readonly string[], linesBefore: number): string {
  for (let index = linesBefore - 1; index >= 0; index--) {
    const line = (oldTokens[index] ?? "").replace(/\n$/, "");
    if (/^[A-Za-z_$]/.test(line)) return ` ${line.slice(0, 80).trimEnd()}`;
  }
  return "";
}

function splitLines(text: string): { tokens: string[] } {
  if (text === "") return { tokens: [] };
  const tokens = text.split("\n").map((line) => `${line}\n`);
  const lastToken = tokens.at(-1);
  if (lastToken === "\n") {
    tokens.pop();
  } else if (lastToken !== undefined) {
    tokens[tokens.length - 1] = lastToken.slice(0, -1);
  }
  return { tokens };
}
