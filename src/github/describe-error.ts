import { redactSecrets } from "../llm/redact-secrets.js";

const GITHUB_TOKEN_RE = /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})\b/g;

/**
 * A one-line reason for a failure, safe to publish on a board or a check and
 * to log: GitHub errors by status and route, our own typed errors by their
 * public message, never a stack, a token or a response body.
 */
export function describeError(error: unknown): string {
  const text = describe(error).replace(/\s+/g, " ").trim();
  return redactSecrets(text, []).replace(GITHUB_TOKEN_RE, "[redacted]").slice(0, 300);
}

function describe(error: unknown): string {
  if (typeof error !== "object" || error === null) return "unknown error";
  const candidate = error as {
    status?: unknown;
    request?: { method?: unknown; url?: unknown };
    publicMessage?: unknown;
    message?: unknown;
    name?: unknown;
  };
  if (typeof candidate.status === "number" && candidate.request !== undefined) {
    const method = typeof candidate.request.method === "string" ? candidate.request.method : "";
    const url = typeof candidate.request.url === "string" ? candidate.request.url : "";
    let path = url;
    try {
      path = new URL(url).pathname.replace(/^\/api\/v3/, "");
    } catch {
      // Not a URL: keep what there is.
    }
    return `GitHub answered ${candidate.status} to ${method} ${path}`.trim();
  }
  if (typeof candidate.publicMessage === "string") return candidate.publicMessage;
  if (candidate.name === "ConfigError" && typeof candidate.message === "string")
    return candidate.message;
  if (typeof candidate.message === "string") return candidate.message;
  return "unknown error";
}
