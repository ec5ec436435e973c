/** The most of `times` (epoch ms) within any sliding window of `windowMs`. */
export function peakInWindow(times: readonly number[], windowMs: number): number {
  const sorted = [...times].sort((left, right) => left - right);
  let peak = 0;
  let start = 0;
  for (let index = 0; index < sorted.length; index++) {
    while ((sorted[index] ?? 0) - (sorted[start] ?? 0) >= windowMs) start++;
    peak = Math.max(peak, index - start + 1);
  }
  return peak;
}
