/**
 * How every benchmark reports: an aligned two-column table for people, then
 * one JSON line (the last line of its output) for the runner and for diffs
 * between runs.
 */
export function printReport(
  rows: ReadonlyArray<readonly [string, string]>,
  json: Record<string, unknown>,
): void {
  const width = Math.max(...rows.map(([label]) => label.length));
  for (const [label, value] of rows) console.log(`${label.padEnd(width)}  ${value}`);
  console.log(JSON.stringify(json));
}
