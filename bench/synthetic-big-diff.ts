/**
 * The big-PR benchmark's input: a synthetic PR of 3,000 files and 150,000 changed lines in
 * git's format. Also what the parse-diff reference times (bench/parse-diff-reference.ts).
 */
import { seededRandom } from "./seeded-random.js";

export const FILE_COUNT = 3_000;
export const CHANGED_LINES = 150_000;

const WORDS = [
  "const",
  "return",
  "await",
  "if",
  "value",
  "request",
  "response",
  "handler",
  "options",
  "result",
  "error",
  "config",
  "=",
  "===",
  "(",
  ")",
  "{",
  "}",
  "items.map",
  "user.id",
  "null",
];

export interface SyntheticDiff {
  text: string;
  changedLines: number;
}

/** Builds the PR's diff in git's format: mostly modified files, some added, deleted, renamed, binary. */
export function syntheticDiff(random: () => number = seededRandom(20_260_806)): SyntheticDiff {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const codeLine = (): string => {
    // Built with join, not +=: a rope of small pieces per line would make the input itself the
    // biggest thing in memory.
    const words = ["  ".repeat(Math.floor(random() * 4))];
    const count = 3 + Math.floor(random() * 9);
    for (let index = 0; index < count; index++) words.push(pick(WORDS));
    words.push(`x${Math.floor(random() * 1000)};`);
    return words.join(" ");
  };
  const kinds = [
    "modified",
    "modified",
    "modified",
    "modified",
    "modified",
    "modified",
    "added",
    "deleted",
    "renamed",
  ];
  const directories = ["src/core", "src/api", "src/ui", "test/unit", "docs", "lib", "dist"];

  // Spread the changed lines over the text files; binary and mode-only files change none.
  const weights = Array.from({ length: FILE_COUNT }, () => 0.2 + random());
  const binary = new Set(Array.from({ length: 40 }, (_, index) => index * 73));
  const weightSum = weights.reduce(
    (sum, weight, index) => (binary.has(index) ? sum : sum + weight),
    0,
  );
  const budgets = weights.map((weight, index) =>
    binary.has(index) ? 0 : Math.max(1, Math.floor((weight / weightSum) * CHANGED_LINES)),
  );
  let shortfall = CHANGED_LINES - budgets.reduce((sum, budget) => sum + budget, 0);
  for (let index = 1; shortfall !== 0; index = (index + 1) % FILE_COUNT) {
    if (binary.has(index)) continue;
    const step = shortfall > 0 ? 1 : -1;
    if ((budgets[index] ?? 0) + step < 1) continue;
    budgets[index] = (budgets[index] ?? 0) + step;
    shortfall -= step;
  }

  const lines: string[] = [];
  let changedLines = 0;
  for (let index = 0; index < FILE_COUNT; index++) {
    const path = `${pick(directories)}/module-${index}/file-${index}.ts`;
    const budget = budgets[index] ?? 0;
    if (binary.has(index)) {
      lines.push(`diff --git a/${path}.png b/${path}.png`, "index 1111111..2222222 100644");
      lines.push(`Binary files a/${path}.png and b/${path}.png differ`);
      continue;
    }
    const kind = pick(kinds);
    if (kind === "added" || kind === "deleted") {
      const added = kind === "added";
      lines.push(`diff --git a/${path} b/${path}`);
      lines.push(`${added ? "new" : "deleted"} file mode 100644`, "index 0000000..3333333");
      lines.push(
        added ? "--- /dev/null" : `--- a/${path}`,
        added ? `+++ b/${path}` : "+++ /dev/null",
      );
      lines.push(added ? `@@ -0,0 +1,${budget} @@` : `@@ -1,${budget} +0,0 @@`);
      for (let line = 0; line < budget; line++) lines.push(`${added ? "+" : "-"}${codeLine()}`);
      changedLines += budget;
      continue;
    }
    const oldPath = kind === "renamed" ? `${path}.old` : path;
    lines.push(`diff --git a/${oldPath} b/${path}`);
    if (kind === "renamed") {
      lines.push("similarity index 88%", `rename from ${oldPath}`, `rename to ${path}`);
    }
    lines.push("index 4444444..5555555 100644", `--- a/${oldPath}`, `+++ b/${path}`);
    const hunkCount = Math.min(budget, 1 + Math.floor(random() * 6));
    let oldLine = 1;
    let newLine = 1;
    let left = budget;
    for (let hunk = 0; hunk < hunkCount; hunk++) {
      const changes =
        hunk === hunkCount - 1 ? left : Math.max(1, Math.floor(left / (hunkCount - hunk)));
      left -= changes;
      const deletions = Math.floor(changes * random() * 0.6);
      const additions = changes - deletions;
      const gap = 5 + Math.floor(random() * 60);
      oldLine += gap;
      newLine += gap;
      lines.push(
        `@@ -${oldLine},${deletions + 6} +${newLine},${additions + 6} @@ function f${hunk}() {`,
      );
      for (let context = 0; context < 3; context++) lines.push(` ${codeLine()}`);
      for (let line = 0; line < deletions; line++) lines.push(`-${codeLine()}`);
      for (let line = 0; line < additions; line++) lines.push(`+${codeLine()}`);
      for (let context = 0; context < 3; context++) lines.push(` ${codeLine()}`);
      oldLine += deletions + 6;
      newLine += additions + 6;
    }
    changedLines += budget;
  }
  lines.push("");
  return { text: lines.join("\n"), changedLines };
}
