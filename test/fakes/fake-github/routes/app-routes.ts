import { generateKeyPairSync, randomBytes } from "node:crypto";
import { githubError } from "../github-error.js";
import type { Route, RouteContext, RouteResponse } from "../route.js";
import { userJson } from "../views/user-json.js";

const tokenLifetimeMilliseconds = 60 * 60 * 1000;
const permissions = {
  checks: "write",
  contents: "read",
  issues: "write",
  metadata: "read",
  pull_requests: "write",
};

/** Routes an app calls with its JWT: who am I, and the token exchange. */
export const appRoutes: Route[] = [
  appRoute("GET", "/app", (context) => {
    const { state } = context;
    const owner =
      [...state.installations.values()][0]?.account ?? state.user("octo-org", "Organization");
    return {
      status: 200,
      json: {
        id: state.app.id,
        slug: state.app.slug,
        node_id: Buffer.from(`03:Integration${state.app.id}`).toString("base64"),
        client_id: `Iv1.${state.app.id.toString(16).padStart(16, "0")}`,
        owner: userJson(owner, state.urls),
        name: state.app.slug,
        description: "",
        external_url: state.urls.html,
        html_url: `${state.urls.html}/apps/${state.app.slug}`,
        created_at: "2020-01-01T00:00:00Z",
        updated_at: "2020-01-01T00:00:00Z",
        permissions,
        events: ["check_run", "issue_comment", "pull_request"],
        installations_count: state.installations.size,
      },
    };
  }),
  appRoute("GET", "/app/installations", (context) => ({
    status: 200,
    json: [...context.state.installations.keys()].map((id) => installationJson(context, id)),
  })),
  {
    // Probot's setup mode trades the code GitHub gave the browser for the new App's
    // credentials; unauthenticated, as on GitHub. The App is this fake's own.
    method: "POST",
    path: "/app-manifests/{code}/conversions",
    validateBody: false,
    handle(context) {
      const { state } = context;
      return {
        status: 201,
        json: {
          id: state.app.id,
          slug: state.app.slug,
          node_id: Buffer.from(`03:Integration${state.app.id}`).toString("base64"),
          name: state.app.slug,
          owner: userJson(state.user("octo-org", "Organization"), state.urls),
          description: "",
          external_url: state.urls.html,
          html_url: `${state.urls.html}/apps/${state.app.slug}`,
          created_at: "2020-01-01T00:00:00Z",
          updated_at: "2020-01-01T00:00:00Z",
          permissions,
          events: ["check_run", "issue_comment", "pull_request"],
          client_id: `Iv1.${state.app.id.toString(16).padStart(16, "0")}`,
          client_secret: "fake-client-secret",
          webhook_secret: `whsec-from-manifest-${context.params.code ?? ""}`,
          pem: manifestKey(),
        },
      };
    },
  },
  appRoute("GET", "/app/installations/{installation_id}", (context) => {
    const installation = context.state.installations.get(Number(context.params.installation_id));
    if (installation === undefined) return githubError(404, "Not Found");
    return { status: 200, json: installationJson(context, installation.id) };
  }),
  appRoute("GET", "/repos/{owner}/{repo}/installation", (context) => {
    const repository = context.state.findRepository(
      context.params.owner ?? "",
      context.params.repo ?? "",
    );
    if (repository === undefined) return githubError(404, "Not Found");
    return { status: 200, json: installationJson(context, repository.installationId) };
  }),
  appRoute("POST", "/app/installations/{installation_id}/access_tokens", (context) => {
    const { state } = context;
    const installationId = Number(context.params.installation_id);
    if (!state.installations.has(installationId)) return githubError(404, "Not Found");
    const issuedAt = state.now();
    const expiresAt = new Date(issuedAt.getTime() + tokenLifetimeMilliseconds);
    const token = `ghs_${randomBytes(18).toString("hex")}`;
    state.tokens.set(token, { token, installationId, issuedAt, expiresAt });
    return {
      status: 201,
      json: {
        token,
        expires_at: `${expiresAt.toISOString().slice(0, 19)}Z`,
        permissions,
        repository_selection: "all",
      },
    };
  }),
];

let generatedKey: string | null = null;

/** One RSA key per fake process, made when first asked for (generating one takes a moment). */
function manifestKey(): string {
  generatedKey ??= generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({
    type: "pkcs1",
    format: "pem",
  }) as string;
  return generatedKey;
}

function appRoute(
  method: string,
  path: string,
  handle: (context: RouteContext) => RouteResponse,
): Route {
  return {
    method,
    path,
    validateBody: true,
    handle(context) {
      const { identity } = context;
      if (identity.kind !== "jwt") {
        return githubError(401, "A JSON web token could not be decoded");
      }
      if (identity.issuer !== undefined && identity.issuer !== String(context.state.app.id)) {
        return githubError(401, "Integration not found");
      }
      return handle(context);
    },
  };
}

function installationJson(context: RouteContext, installationId: number): Record<string, unknown> {
  const { state } = context;
  const installation = state.installations.get(installationId);
  return {
    id: installationId,
    account: installation === undefined ? null : userJson(installation.account, state.urls),
    app_id: state.app.id,
    app_slug: state.app.slug,
    target_type: installation?.account.type ?? "User",
    repository_selection: "all",
    permissions,
    events: ["check_run", "issue_comment", "pull_request"],
    access_tokens_url: `${state.urls.api}/app/installations/${installationId}/access_tokens`,
    repositories_url: `${state.urls.api}/installation/repositories`,
    html_url: `${state.urls.html}/settings/installations/${installationId}`,
    created_at: "2020-01-01T00:00:00Z",
    updated_at: "2020-01-01T00:00:00Z",
    single_file_name: null,
    suspended_at: null,
    suspended_by: null,
  };
}
