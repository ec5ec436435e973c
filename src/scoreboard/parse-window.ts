const UNITS: Readonly<Record<string, number>> = {
  h: 3_600_000,
  d: 86_400_000,
  w: 7 * 86_400_000,
};

/** The longest window: rounds older than a year are not worth a query over every table. */
export const MAX_WINDOW_DAYS = 366;

/**
 * `--since 30d` (or `12h`, `2w`, `?since=` on the dashboard) in milliseconds; null when the
 * text is not a whole number of hours, days or weeks, from 1 hour to `MAX_WINDOW_DAYS` days.
 */
export function parseWindow(text: string): number | null {
  const match = /^([1-9][0-9]{0,4})([hdw])$/.exec(text.trim());
  if (match === null) return null;
  const milliseconds = Number(match[1]) * (UNITS[match[2] as string] as number);
  return milliseconds > MAX_WINDOW_DAYS * 86_400_000 ? null : milliseconds;
}
