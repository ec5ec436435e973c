import type { DoctorReport, DoctorStatus } from "./doctor-check.js";

const MARKS: Record<DoctorStatus, string> = { pass: "✔", warn: "!", fail: "✘", skip: "–" };

/**
 * The table `gadfly doctor` prints and the app logs at start: one row per check (mark,
 * title, what was found), its fix on the next line when there is one, then one summary
 * line. Text from elsewhere (a config, a provider's model list) cannot move the cursor.
 */
export function formatDoctorTable(report: DoctorReport): string {
  const width = Math.max(...report.checks.map((check) => check.title.length), 0) + 2;
  const lines = report.checks.flatMap((check) => {
    const row = `${MARKS[check.status]} ${check.title.padEnd(width)}${plain(check.detail)}`;
    return check.fix === null ? [row] : [row, `  ${" ".repeat(width)}→ ${plain(check.fix)}`];
  });
  const failed = report.checks.filter((check) => check.status === "fail").length;
  const warned = report.checks.filter((check) => check.status === "warn").length;
  const summary =
    failed === 0
      ? `Ready for a first round${warned === 0 ? "" : ` (${warned} warning${warned === 1 ? "" : "s"})`}.`
      : `${failed} check${failed === 1 ? "" : "s"} failed: fix ${failed === 1 ? "it" : "them"} and run gadfly doctor again.`;
  return `${[...lines, summary].join("\n")}\n`;
}

/** Control characters (escape sequences, newlines) shown as `?`. */
function plain(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are what is removed
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, "?");
}
