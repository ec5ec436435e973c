import type { Severity } from "../findings/index.js";

/* How a value is shown wherever it appears: counts, locations, times, commits, severities. */

/** `12,345`: thousands grouped the same way whatever the machine's locale. */
export function formatCount(count: number): string {
  const digits = String(Math.trunc(count));
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** `file:12` or `file:12-14`, as the Where column shows a finding. */
export function formatLocation(file: string, line: number, endLine: number): string {
  if (!Number.isFinite(line)) return file;
  return Number.isFinite(endLine) && endLine > line
    ? `${file}:${line}-${endLine}`
    : `${file}:${line}`;
}

/** `2026-08-06 00:27:21Z`: ISO 8601 in UTC, seconds precision, as the status board shows it. */
export function formatTimestamp(date: Date): string {
  if (Number.isNaN(date.getTime())) return "unknown time";
  return date
    .toISOString()
    .replace("T", " ")
    .replace(/\.\d+Z$/, "Z");
}

/** The 7-character abbreviation GitHub shows; anything not hexadecimal is dropped. */
export function shortSha(sha: string): string {
  return sha
    .toLowerCase()
    .replace(/[^0-9a-f]/g, "")
    .slice(0, 7);
}

export const SEVERITY_EMOJI: Record<Severity, string> = {
  high: "🔴",
  medium: "🟠",
  low: "🟡",
  nit: "⚪",
};
