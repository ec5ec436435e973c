import picomatch from "picomatch";

interface IgnoreRule {
  /** A `!` rule lets back in what earlier rules left out. */
  include: boolean;
  matches: (path: string) => boolean;
}

/**
 * Whether a path (relative to the build context, `/`-separated) is left out of a Docker build
 * context by these `.dockerignore` contents, with Docker's semantics (moby's patternmatcher):
 * patterns are anchored at the context root (`*.pem` matches at the root only; `**` crosses
 * directories); a pattern matching a parent directory matches everything under it; the last
 * matching rule wins, and `!` rules re-include.
 */
export function dockerIgnoreMatcher(contents: string): (path: string) => boolean {
  const rules: IgnoreRule[] = contents
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((line) => {
      const include = line.startsWith("!");
      const pattern = cleanPattern(include ? line.slice(1).trim() : line);
      return { include, matches: picomatch(pattern, { dot: true }) };
    });
  return (path) => {
    const candidates = selfAndParents(path);
    let excluded = false;
    for (const rule of rules) {
      if (candidates.some((candidate) => rule.matches(candidate))) excluded = !rule.include;
    }
    return excluded;
  };
}

/** Docker cleans each pattern like a path: no leading `/` or `./`, no trailing `/`. */
function cleanPattern(pattern: string): string {
  return pattern.replace(/^(\.?\/)+/, "").replace(/\/+$/, "");
}

/** `a/b/c` → `a/b/c`, `a/b`, `a`. */
function selfAndParents(path: string): string[] {
  const parts = path.split("/");
  return parts.map((_, index) => parts.slice(0, parts.length - index).join("/"));
}
