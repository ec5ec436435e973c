import type { Octokit } from "@octokit/rest";
import { createRedactor, type Redactor } from "../llm/index.js";

/** Request options that are how to send, not what: never rewritten (headers carry our token). */
const TRANSPORT_KEYS = new Set(["method", "url", "baseUrl", "headers", "request", "mediaType"]);
const WRITE_METHODS = new Set(["POST", "PATCH", "PUT"]);

/**
 * An Octokit plugin redacting every string we send GitHub in a write (comment and
 * review bodies, check run output, annotations): the last gate before anything is
 * published, behind the redaction of model text itself. Secrets are the process's
 * (collectSecrets) plus the credential shapes the redactor knows.
 */
export function redactOutgoingText(secrets: readonly string[]) {
  // Prepared once for the Octokit class, not once a field.
  const redact = createRedactor(secrets);
  // Only the hook is used, so the plugin fits any Octokit: @octokit/rest's, core's, Probot's.
  return (octokit: Pick<Octokit, "hook">): void => {
    octokit.hook.before("request", (options) => {
      if (!WRITE_METHODS.has(String(options.method).toUpperCase())) return;
      const fields = options as unknown as Record<string, unknown>;
      for (const key of Object.keys(fields)) {
        if (!TRANSPORT_KEYS.has(key)) fields[key] = redactDeep(fields[key], redact);
      }
    });
  };
}

function redactDeep(value: unknown, redact: Redactor): unknown {
  if (typeof value === "string") return redact(value);
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, redact));
  if (
    typeof value === "object" &&
    value !== null &&
    Object.getPrototypeOf(value) === Object.prototype
  ) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, redactDeep(item, redact)]),
    );
  }
  return value;
}
