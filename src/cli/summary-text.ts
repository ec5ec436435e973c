import type { ConsensusSummary } from "../consensus/index.js";
import { terminalSafeText } from "./terminal-safe-text.js";

/**
 * The summary for a terminal: the model's lines and file groups, escape sequences stripped,
 * under a heading that says whose description it is; or why it is unavailable. None when off.
 */
export function summaryText(
  summary: ConsensusSummary | undefined,
  heading: (text: string) => string,
): string[] {
  if (summary === undefined) return [];
  const safe = (text: string): string => terminalSafeText(text, { oneLine: true });
  if (summary.state === "unavailable") {
    return ["", `${heading("Summary unavailable")} — ${safe(summary.reason)}`];
  }
  return [
    "",
    `${heading("What this change does")} (${safe(summary.model)}'s description, not a verdict)`,
    ...summary.lines.map((line) => `  ${safe(line)}`),
    ...summary.groups.map(
      (group) => `  · ${safe(group.label)}: ${group.files.map(safe).join(", ")}`,
    ),
  ];
}
