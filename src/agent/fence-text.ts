/** Fences text with more backticks than any run inside it, so the text cannot close the fence. */
export function fenceText(text: string, info = ""): string {
  const longestRun = Math.max(0, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  const fence = "`".repeat(Math.max(3, longestRun + 1));
  return `${fence}${info}\n${text}\n${fence}`;
}
