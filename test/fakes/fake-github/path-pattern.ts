/**
 * A request path pattern: a RegExp, or a string where `*` matches one path
 * segment and `**` any number of them (`/repos/o/r/issues/comments/*`).
 * Paths are compared without the `/api/v3` prefix and without the query.
 */
export type PathPattern = string | RegExp;

export function matchesPathPattern(pattern: PathPattern, path: string): boolean {
  if (pattern instanceof RegExp) return pattern.test(path);
  return compile(pattern).test(path);
}

const compiled = new Map<string, RegExp>();

function compile(pattern: string): RegExp {
  let expression = compiled.get(pattern);
  if (expression === undefined) {
    const source = pattern
      .split(/(\*\*|\*)/)
      .map((part) =>
        part === "**" ? ".*" : part === "*" ? "[^/]+" : part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"),
      )
      .join("");
    expression = new RegExp(`^${source}$`);
    compiled.set(pattern, expression);
  }
  return expression;
}
