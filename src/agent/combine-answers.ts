/** The published text after a repair: the review's prose, then the repaired block. */
export function combineAnswers(original: string, repaired: string): string {
  const before = original.trim();
  const after = repaired.trim();
  if (before === "" || after.includes(before)) return after;
  return `${before}\n\n${after}`;
}
