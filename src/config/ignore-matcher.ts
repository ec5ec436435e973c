import { compileSafeGlob } from "./safe-glob.js";

/**
 * One predicate for a repository's `ignore` globs: true when any matches the
 * path. The globs were validated with the config (RepoConfig); one that is not
 * in the safe subset here is a programming error, not a silent non-match.
 * Work per path: at most its length × the globs' matcher states.
 */
export function ignoreMatcher(globs: readonly string[]): (path: string) => boolean {
  const matchers = globs.map((glob, index) => {
    const compiled = compileSafeGlob(glob);
    if (!compiled.ok) throw new Error(`ignore[${index}]: ${compiled.problem}`);
    return compiled.matches;
  });
  return (path) => matchers.some((matches) => matches(path));
}
