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

/** `850`, `12.3k`, `4.2M`: token counts at a glance. */
export function formatTokens(count: number): string {
  const n = Math.max(0, Math.round(count));
  if (n < 1_000) return String(n);
  if (n < 1_000_000) return `${trimmed(n / 1_000)}k`;
  return `${trimmed(n / 1_000_000)}M`;
}

function trimmed(value: number): string {
  return (value < 100 ? value.toFixed(1) : value.toFixed(0)).replace(/\.0$/, "");
}

/** `850 ms`, `48 s`, `3 min 12 s`, `1 h 4 min`. */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.round(ms));
  if (total < 1_000) return `${total} ms`;
  const seconds = Math.round(total / 1_000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${seconds % 60} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** `$0.21`, `$12.40`, `< $0.01`: an estimate, never more precise than a cent. */
export function formatCost(usd: number): string {
  if (usd > 0 && usd < 0.005) return "< $0.01";
  return `$${usd.toFixed(2)}`;
}

export const SEVERITY_EMOJI: Record<Severity, string> = {
  high: "🔴",
  medium: "🟠",
  low: "🟡",
  nit: "⚪",
};

/** `🔴 high`: the emoji with its word (FORMATS.md), wherever a finding's severity is shown. */
export function severityLabel(severity: Severity): string {
  return `${SEVERITY_EMOJI[severity]} ${severity}`;
}
