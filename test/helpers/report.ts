/**
 * Summary tables (corpus results, fault outcomes, timing series) are printed only
 * on request, with GADFLY_TEST_REPORT=1, so a plain test run stays quiet.
 * Failures never depend on them: the assertions beside each report do.
 */
export const reportRequested = process.env.GADFLY_TEST_REPORT === "1";

/** Prints the lines when a report was requested. */
export function report(...lines: string[]): void {
  if (reportRequested) console.log(lines.join("\n"));
}

/** Prints the rows as a table when a report was requested. */
export function reportTable(rows: readonly object[]): void {
  if (reportRequested) console.table(rows);
}
