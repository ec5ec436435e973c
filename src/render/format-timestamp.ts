/** `2026-08-06 00:27:21Z`: ISO 8601 in UTC, seconds precision, as the status board shows it. */
export function formatTimestamp(date: Date): string {
  if (Number.isNaN(date.getTime())) return "unknown time";
  return date
    .toISOString()
    .replace("T", " ")
    .replace(/\.\d+Z$/, "Z");
}
