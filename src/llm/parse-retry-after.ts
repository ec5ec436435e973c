/** The one method of `Headers` we need, so plain maps can be passed in tests. */
export interface HeaderReader {
  get(name: string): string | null;
}

/**
 * The wait a server asked for, in milliseconds: `retry-after-ms` (OpenAI's), then
 * `Retry-After` as seconds or as an HTTP date (relative to `now`). Undefined when absent
 * or unreadable.
 */
export function parseRetryAfter(
  headers: HeaderReader | undefined,
  now: number,
): number | undefined {
  if (headers === undefined) {
    return undefined;
  }
  const milliseconds = parseNonNegativeNumber(headers.get("retry-after-ms"));
  if (milliseconds !== undefined) {
    return Math.ceil(milliseconds);
  }
  const value = headers.get("retry-after")?.trim();
  if (value === undefined || value === "") {
    return undefined;
  }
  const seconds = parseNonNegativeNumber(value);
  if (seconds !== undefined) {
    return Math.ceil(seconds * 1000);
  }
  // An HTTP date names its day and month; without that check Date.parse reads "-5" as a year.
  const date = /[A-Za-z]/.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(date)) {
    return undefined;
  }
  return Math.max(0, date - now);
}

function parseNonNegativeNumber(value: string | null): number | undefined {
  if (value === null || !/^\s*\d+(\.\d+)?\s*$/.test(value)) {
    return undefined;
  }
  return Number(value);
}
