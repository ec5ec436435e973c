/** One line of the app's JSON log (LOG_FORMAT=json), with the fields the tests read. */
export interface AppLogLine {
  level: number;
  msg: string;
  delivery?: string;
  reason?: string;
  round?: string;
  [field: string]: unknown;
}

/** The JSON lines of the app's output; other lines (the one-line startup errors) are skipped. */
export function appLogs(output: string): AppLogLine[] {
  return output.split("\n").flatMap((line): AppLogLine[] => {
    if (!line.startsWith("{")) return [];
    try {
      const parsed: unknown = JSON.parse(line);
      return typeof parsed === "object" && parsed !== null && "msg" in parsed
        ? [parsed as AppLogLine]
        : [];
    } catch {
      return [];
    }
  });
}
