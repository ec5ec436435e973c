import type { Finding } from "./finding.js";

// Code-unit comparison, not localeCompare: the order must not depend on the machine's locale.
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * A total order on findings by content alone (file, lines, model, lens, text, grades), so that
 * clustering sees the same sequence whatever order the findings arrived in.
 */
export function canonicalOrder(a: Finding, b: Finding): number {
  return (
    compareText(a.file, b.file) ||
    a.line - b.line ||
    a.endLine - b.endLine ||
    compareText(a.model, b.model) ||
    compareText(a.lens, b.lens) ||
    compareText(a.title, b.title) ||
    compareText(a.body, b.body) ||
    compareText(a.severity, b.severity) ||
    compareText(a.confidence, b.confidence)
  );
}
