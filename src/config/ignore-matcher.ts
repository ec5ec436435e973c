import { compileSafeGlob, type MatchBudget } from "./safe-glob.js";

/**
 * Live matcher states visited while matching one change set's paths against
 * the ignore globs (~10–25 ns each on the 2-core test machine, so ~0.5 s at
 * most): a bound on the whole, not only per path. Ordinary globs stay far
 * below it (3,000 files against 50 globstar globs: ~75 thousand steps, 17.6
 * million even without the literal-ending shortcut); only a heavy list and
 * thousands of long paths made for it reach it.
 */
export const IGNORE_MATCH_STEPS = 20_000_000;

/**
 * What the ignore globs say of one path: a glob matches it, none does, or the budget ran
 * out before every glob was tried (on that path or an earlier one), so nobody knows.
 */
export type IgnoreVerdict = "ignored" | "kept" | "unchecked";

export interface IgnoreMatcher {
  /**
   * The globs' verdict on the path. Once the budget is spent every path is "unchecked":
   * the caller must say so (prepareChangeSet lists it as not reviewed, with that reason),
   * never treat it as kept or ignored without a word.
   */
  check(path: string): IgnoreVerdict;
  /** Whether the budget ran out, so some paths are "unchecked". */
  readonly exhausted: boolean;
  /** Steps spent so far (for measurement). */
  readonly stepsUsed: number;
}

/**
 * One predicate for a repository's `ignore` globs. The globs were validated
 * with the config (RepoConfig); one that is not in the safe subset here is a
 * programming error, not a silent non-match. Work per path is at most its
 * length × the globs' matcher states, and over all paths at most `steps`:
 * past it, paths are no longer matched but answered "unchecked" (stalling the
 * event loop would cost every tenant).
 */
export function ignoreMatcher(
  globs: readonly string[],
  steps: number = IGNORE_MATCH_STEPS,
): IgnoreMatcher {
  const matchers = globs.map((glob, index) => {
    const compiled = compileSafeGlob(glob);
    if (!compiled.ok) throw new Error(`ignore[${index}]: ${compiled.problem}`);
    return compiled;
  });
  const budget: MatchBudget = { steps };
  let exhausted = false;
  return {
    check(path) {
      if (exhausted) return "unchecked";
      for (const matcher of matchers) {
        const matched = matcher.matchesWithin(path, budget);
        if (matched === null) {
          exhausted = true;
          return "unchecked";
        }
        if (matched) return "ignored";
      }
      return "kept";
    },
    get exhausted() {
      return exhausted;
    },
    get stepsUsed() {
      return steps - Math.max(0, budget.steps);
    },
  };
}
