/** Fences text with more backticks than any run inside it, so the text cannot close the fence. */
export function fenceText(text: string, info = ""): string {
  // A loop, not Math.max(...runs): model text can hold millions of runs, more arguments than
  // a call may take (RangeError).
  let longestRun = 0;
  for (const match of text.matchAll(/`+/g)) longestRun = Math.max(longestRun, match[0].length);
  const fence = "`".repeat(Math.max(3, longestRun + 1));
  return `${fence}${info}\n${text}\n${fence}`;
}
