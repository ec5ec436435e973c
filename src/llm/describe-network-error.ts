const NETWORK_ERROR_CODES = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ECONNABORTED",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
]);

const NETWORK_ERROR_MESSAGES = /fetch failed|socket hang up|other side closed|network error/i;

/**
 * A short description ("ECONNREFUSED", "fetch failed") when the error, or one of its
 * causes, is a transport failure worth retrying; undefined otherwise. Only the code or the
 * fixed phrase is returned, never the underlying message, which could carry a URL or body.
 */
export function describeNetworkError(error: unknown): string | undefined {
  let fallback: string | undefined;
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && NETWORK_ERROR_CODES.has(code)) {
      return code;
    }
    const phrase = NETWORK_ERROR_MESSAGES.exec(current.message)?.[0];
    if (fallback === undefined && phrase !== undefined) {
      fallback = phrase.toLowerCase();
    }
    current = current.cause;
  }
  return fallback;
}
