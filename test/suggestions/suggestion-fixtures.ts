import { ChangedLineIndex, type DiffFile } from "../../src/diff/index.js";
import { headFile } from "../../src/suggestions/index.js";

/** A diff index whose files (`paths`) have one hunk per [start, end] of new-side lines (all added). */
export function indexWithHunks(
  paths: string | string[],
  ranges: [number, number][],
): ChangedLineIndex {
  return ChangedLineIndex.fromFiles(
    (typeof paths === "string" ? [paths] : paths).map((path) => diffFile(path, ranges)),
  );
}

function diffFile(path: string, ranges: [number, number][]): DiffFile {
  return {
    path,
    oldPath: path,
    newPath: path,
    status: "modified",
    binary: false,
    oldMode: null,
    newMode: null,
    similarity: null,
    hunks: ranges.map(([start, end]) => ({
      oldStart: start,
      oldCount: 0,
      newStart: start,
      newCount: end - start + 1,
      section: "",
      lines: Array.from({ length: end - start + 1 }, (_, at) => ({
        type: "add" as const,
        content: "",
        oldLine: null,
        newLine: start + at,
      })),
    })),
    additions: 0,
    deletions: 0,
  };
}

/** The head read the check takes, from a file's text. */
export function headRead(text: string) {
  return { head: headFile(text), text };
}

/**
 * One sample per shipped language: a file, the line of a bug, a fix that keeps it parsing and a
 * "fix" that breaks its syntax. Each fix replaces that one line.
 */
export const LANGUAGE_SAMPLES = [
  {
    grammar: "typescript",
    file: "src/total.ts",
    text: "export function total(items: number[]): number {\n  let sum = 1;\n  for (const item of items) sum += item;\n  return sum;\n}\n",
    line: 2,
    good: "  let sum = 0;",
    broken: "  let sum = (0;",
  },
  {
    grammar: "tsx",
    file: "src/view.tsx",
    text: "export function View(props: { name: string }) {\n  return <p>{props.nam}</p>;\n}\n",
    line: 2,
    good: "  return <p>{props.name}</p>;",
    broken: "  return <p>{props.name}</;",
  },
  {
    grammar: "javascript",
    file: "lib/total.js",
    text: "function total(items) {\n  let sum = 1;\n  return items.reduce((a, b) => a + b, sum);\n}\nmodule.exports = { total };\n",
    line: 2,
    good: "  let sum = 0;",
    broken: "  let sum = 0 +;",
  },
  {
    grammar: "python",
    file: "app/total.py",
    text: "def total(items):\n    s = 1\n    for item in items:\n        s += item\n    return s\n",
    line: 2,
    good: "    s = 0",
    broken: "    s = (0",
  },
  {
    grammar: "go",
    file: "pkg/total.go",
    text: "package total\n\nfunc Total(items []int) int {\n\tsum := 1\n\tfor _, item := range items {\n\t\tsum += item\n\t}\n\treturn sum\n}\n",
    line: 4,
    good: "\tsum := 0",
    broken: "\tsum := 0 +",
  },
  {
    grammar: "java",
    file: "src/Total.java",
    text: "class Total {\n  int total(int[] items) {\n    int sum = 1;\n    for (int item : items) sum += item;\n    return sum;\n  }\n}\n",
    line: 3,
    good: "    int sum = 0;",
    broken: "    int sum = 0",
  },
  {
    grammar: "ruby",
    file: "lib/total.rb",
    text: "def total(items)\n  sum = 1\n  items.each { |item| sum += item }\n  sum\nend\n",
    line: 2,
    good: "  sum = 0",
    broken: "  sum = (0",
  },
  {
    grammar: "rust",
    file: "src/total.rs",
    text: "fn total(items: &[i32]) -> i32 {\n    let mut sum = 1;\n    for item in items {\n        sum += item;\n    }\n    sum\n}\n",
    line: 2,
    good: "    let mut sum = 0;",
    broken: "    let mut sum = 0",
  },
] as const;
