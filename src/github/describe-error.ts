import { redactSecrets } from "../llm/index.js";

/**
 * A one-line description of a failure for the log: GitHub errors by status and
 * route, our typed errors by their public message, others by their message (which
 * may name a path or a host: fine for the log, which redacts secrets, never for a
 * page; what is published comes from publicFailureReason). No stack, no token.
 */
export function describeError(error: unknown): string {
  const text = describe(error).replace(/\s+/g, " ").trim();
  return redactSecrets(text, []).slice(0, 300);
}

function describe(error: unknown): string {
  if (typeof error !== "object" || error === null) return "unknown error";
  const candidate = error as {
    status?: unknown;
    request?: { method?: unknown; url?: unknown };
    response?: unknown;
    cause?: unknown;
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
    // Octokit reports a request that got no answer at all (refused, reset, DNS, TLS) as a 500
    // with no response: saying "GitHub answered 500" would send the operator to GitHub's status.
    if (candidate.response === undefined) {
      return `GitHub could not be reached for ${method} ${path}: ${causeOf(candidate)}`.trim();
    }
    return `GitHub answered ${candidate.status} to ${method} ${path}`.trim();
  }
  if (typeof candidate.publicMessage === "string") return candidate.publicMessage;
  if (candidate.name === "ConfigError" && typeof candidate.message === "string")
    return candidate.message;
  if (typeof candidate.message === "string") return candidate.message;
  return "unknown error";
}

/** The network error under an unanswered request ("connect ECONNREFUSED 127.0.0.1:443"). */
function causeOf(error: { cause?: unknown; message?: unknown }): string {
  let cause: unknown = error.cause;
  // fetch wraps the socket's error: "fetch failed", its cause the code and address.
  while (
    typeof cause === "object" &&
    cause !== null &&
    "cause" in cause &&
    cause.cause !== undefined
  ) {
    cause = cause.cause;
  }
  if (typeof cause === "object" && cause !== null && "message" in cause)
    return String(cause.message);
  return typeof error.message === "string" ? error.message : "no answer";
}
