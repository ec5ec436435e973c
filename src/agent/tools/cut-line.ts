/** Shortens one overlong line (minified code) so it cannot eat a tool's whole output budget. */
export function cutLine(line: string, maxChars: number): string {
  if (line.length <= maxChars) return line;
  return `${line.slice(0, maxChars)}… (line cut, ${line.length} chars)`;
}
