const CONTENT_METHODS = new Set(["POST", "PATCH", "PUT", "DELETE"]);
/** Token exchanges and other app-level calls create nothing on a repository. */
const NOT_CONTENT = /^\/(app|applications|login)\//;

/**
 * Whether GitHub counts a request against its content-creation limit (its secondary rate
 * limit of about 80 a minute): POST, PATCH, PUT or DELETE outside the app's own routes and,
 * on GraphQL, mutations only. `url` as Octokit passes it (a template or a full URL, GHE's
 * `/api/v3` prefix or not); `query` is a GraphQL request's.
 */
export function isContentCreating(
  method: string | undefined,
  url: string | undefined,
  query?: unknown,
): boolean {
  if (!CONTENT_METHODS.has(String(method).toUpperCase())) return false;
  const path = (url ?? "").replace(/^[a-z]+:\/\/[^/]+/i, "").replace(/^\/api(\/v3)?(?=\/)/, "");
  if (NOT_CONTENT.test(path)) return false;
  if (path.split("?")[0] === "/graphql") {
    return typeof query === "string" && /^\s*mutation\b/.test(query.replace(/#[^\n]*/g, ""));
  }
  return true;
}
