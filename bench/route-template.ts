/**
 * A recorded request's kind: its method and GitHub's route template, e.g.
 * `PATCH /repos/{owner}/{repo}/issues/comments/{id}`, so requests are counted per endpoint
 * whatever the repository, number or SHA.
 */
export function routeTemplate(method: string, path: string): string {
  const segments = path.split("/").filter((segment) => segment !== "");
  const templated = segments.map((segment, index) => {
    if (segments[0] === "repos" && index === 1) return "{owner}";
    if (segments[0] === "repos" && index === 2) return "{repo}";
    if (/^\d+$/.test(segment)) return "{id}";
    if (/^[0-9a-f]{40}$/.test(segment)) return "{sha}";
    return segment;
  });
  return `${method} /${templated.join("/")}`;
}
