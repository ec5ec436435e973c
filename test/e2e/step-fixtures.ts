import type { LensFinding } from "../../src/findings/schema.js";

/*
 * The two-file pull request the incremental-round e2e tests push steps to: src/a.js with a shell
 * injection at line 5, src/b.js with an unchecked Number() at line 10, and the findings on them.
 */

export const lines = (count: number, name: string) =>
  Array.from({ length: count }, (_, index) => `export const ${name}${index + 1} = ${index + 1};`);
export const text = (entries: readonly string[]) => `${entries.join("\n")}\n`;
export const withLine = (entries: readonly string[], line: number, value: string) =>
  entries.map((entry, index) => (index === line - 1 ? value : entry));

export const aHead = withLine(
  lines(30, "a"),
  5,
  'export const run = (cmd) => exec("sh -c " + cmd);',
);
export const bHead = withLine(
  lines(20, "b"),
  10,
  "export const retries = Number(process.env.RETRIES);",
);

const finding = (
  file: string,
  line: number,
  severity: LensFinding["severity"],
  title: string,
): LensFinding => ({
  file,
  line,
  endLine: line,
  severity,
  confidence: "high",
  title,
  body: `${title}: see ${file}:${line}.`,
});
export const INJECTION = finding(
  "src/a.js",
  5,
  "high",
  "Shell command built from `cmd` allows injection",
);
export const NAN = finding(
  "src/b.js",
  10,
  "medium",
  "`Number(process.env.RETRIES)` is NaN when unset",
);
