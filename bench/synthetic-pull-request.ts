import type { PullRequestFileInput } from "../test/fakes/fake-github/index.js";

const LINES_PER_FILE = 160;
/** The two places each file changes: five lines each, so two hunks per file. */
export const CHANGED_LINES = [21, 101] as const;

export function syntheticPath(index: number): string {
  return `src/module-${String(index).padStart(3, "0")}.ts`;
}

/**
 * A pull request of `fileCount` TypeScript files of 160 lines, each modified in two places of
 * five lines: the size of a large everyday PR. The base contents go to the repository's
 * default branch, the head contents to the PR.
 */
export function syntheticPullRequest(fileCount: number): {
  baseFiles: Record<string, string>;
  files: PullRequestFileInput[];
} {
  const baseFiles: Record<string, string> = {};
  const files: PullRequestFileInput[] = [];
  for (let index = 0; index < fileCount; index++) {
    const base = Array.from(
      { length: LINES_PER_FILE },
      (_, line) =>
        `export const value${line + 1} = compute(${index}, ${line + 1}); // line ${line + 1}`,
    );
    const head = [...base];
    for (const start of CHANGED_LINES) {
      for (let line = start; line < start + 5; line++) {
        head[line - 1] =
          `export const query${line} = (name) => "SELECT * FROM t${index} WHERE n = '" + name + "'";`;
      }
    }
    const path = syntheticPath(index);
    baseFiles[path] = `${base.join("\n")}\n`;
    files.push({ path, base: baseFiles[path], head: `${head.join("\n")}\n` });
  }
  return { baseFiles, files };
}
