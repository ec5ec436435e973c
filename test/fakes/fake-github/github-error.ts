import type { RouteResponse } from "./route.js";

const documentationUrl = "https://docs.github.com/rest";

/** An error in GitHub's shape: `{ message, documentation_url, status }` plus extras such as `errors`. */
export function githubError(
  status: number,
  message: string,
  extra: Record<string, unknown> = {},
): RouteResponse {
  return {
    status,
    json: { message, ...extra, documentation_url: documentationUrl, status: String(status) },
  };
}

/** GitHub's 422 for a field it rejects: `Validation Failed` with one error object. */
export function validationFailed(
  resource: string,
  field: string,
  code: string,
  message: string,
): RouteResponse {
  return githubError(422, "Validation Failed", {
    errors: [{ resource, code, field, message }],
  });
}
