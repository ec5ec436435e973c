import { githubError } from "./github-error.js";
import type { Route, RouteContext, RouteResponse } from "./route.js";
import type { RepositoryRecord, UserRecord } from "./types.js";

export interface RepositoryRouteContext extends RouteContext {
  repository: RepositoryRecord;
}

const readMethods = new Set(["GET", "HEAD"]);

/**
 * A route under `/repos/{owner}/{repo}`: resolves the repository and checks
 * the caller may reach it the way GitHub does (404 when hidden, 401 when the
 * credentials are wrong for it).
 */
export function repositoryRoute(
  method: string,
  path: string,
  handle: (context: RepositoryRouteContext) => RouteResponse,
): Route {
  return {
    method,
    path,
    validateBody: true,
    handle(context) {
      const repository = context.state.findRepository(
        context.params.owner ?? "",
        context.params.repo ?? "",
      );
      const denied = checkAccess(context, repository);
      if (denied !== undefined || repository === undefined) {
        return denied ?? githubError(404, "Not Found");
      }
      return handle({ ...context, repository });
    },
  };
}

function checkAccess(
  context: RouteContext,
  repository: RepositoryRecord | undefined,
): RouteResponse | undefined {
  const { identity } = context;
  switch (identity.kind) {
    case "invalid":
      return githubError(401, identity.message);
    case "jwt":
      // Apps must exchange their JWT for an installation token first.
      return githubError(
        401,
        "A JSON web token cannot be used here: use an installation access token",
      );
    case "anonymous":
      if (!readMethods.has(context.method)) return githubError(401, "Requires authentication");
      if (repository?.private) return githubError(404, "Not Found");
      return undefined;
    case "installation":
      if (
        repository !== undefined &&
        identity.installationId !== undefined &&
        identity.installationId !== repository.installationId
      ) {
        return githubError(404, "Not Found");
      }
      return undefined;
    case "user":
      return undefined;
  }
}

/** The caller's user: the app's bot for installation tokens. */
export function actingUser(context: RouteContext): UserRecord {
  const { identity } = context;
  return identity.kind === "user" || identity.kind === "installation"
    ? identity.user
    : context.state.bot;
}
