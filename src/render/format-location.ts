/** `file:12` or `file:12-14`, as the Where column shows a finding. */
export function formatLocation(file: string, line: number, endLine: number): string {
  if (!Number.isFinite(line)) return file;
  return Number.isFinite(endLine) && endLine > line
    ? `${file}:${line}-${endLine}`
    : `${file}:${line}`;
}
