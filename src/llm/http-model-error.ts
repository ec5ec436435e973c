import { ModelError } from "./errors.js";
import { isRetryableStatus } from "./is-retryable-status.js";
import { redactSecrets } from "./redact-secrets.js";

// Enough for "model not found" or a rate-limit explanation; a whole HTML error page is not.
const MAX_DETAIL_LENGTH = 300;

/**
 * A ModelError for an HTTP error answer. The provider's own explanation is kept, because
 * "model not found" is worth showing, but redacted (providers echo keys back) and capped.
 */
export function httpModelError(options: {
  provider: string;
  status: number;
  detail: string | undefined;
  retryAfterMs: number | undefined;
  secrets: readonly (string | undefined)[];
}): ModelError {
  const detail = oneLine(redactSecrets(options.detail ?? "", options.secrets));
  const text = detail === "" ? "" : `: ${truncate(detail)}`;
  const errorOptions: ConstructorParameters<typeof ModelError>[1] = {
    statusCode: options.status,
    isRetryable: isRetryableStatus(options.status),
  };
  if (options.retryAfterMs !== undefined) {
    errorOptions.retryAfterMs = options.retryAfterMs;
  }
  return new ModelError(`${options.provider}: HTTP ${options.status}${text}`, errorOptions);
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function truncate(text: string): string {
  return text.length <= MAX_DETAIL_LENGTH ? text : `${text.slice(0, MAX_DETAIL_LENGTH)}…`;
}
