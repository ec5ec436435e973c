/**
 * The largest `n` in `[0, max]` for which `fits(n)` holds, by binary search
 * (`fits` must be monotonic: true up to some point, false after). 0 when none does.
 */
export function largestFitting(max: number, fits: (n: number) => boolean): number {
  let low = 0;
  let high = max;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (fits(middle)) low = middle;
    else high = middle - 1;
  }
  return low;
}
