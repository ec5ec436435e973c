/** GitHub rejects a comment, review or review-comment body longer than this (UTF-16 code units). */
export const GITHUB_BODY_LIMIT = 65_536;
/** A check run's `output.summary` and `output.text` each. */
export const CHECK_RUN_OUTPUT_LIMIT = 65_535;
/** What we allow ourselves by default: a margin below the limit. */
export const DEFAULT_BODY_BUDGET = 64_000;

/** The budget to render to: the caller's `maxLength` if given, never above `limit`. */
export function bodyBudget(maxLength: number | undefined, limit = GITHUB_BODY_LIMIT): number {
  return Math.min(maxLength ?? DEFAULT_BODY_BUDGET, limit);
}

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
