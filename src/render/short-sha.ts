/** The 7-character abbreviation GitHub shows; anything not hexadecimal is dropped. */
export function shortSha(sha: string): string {
  return sha
    .toLowerCase()
    .replace(/[^0-9a-f]/g, "")
    .slice(0, 7);
}
