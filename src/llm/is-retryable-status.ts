/**
 * Statuses worth another attempt: rate limited (429), request timeout (408), conflict
 * (409, which OpenAI uses for transient lock contention) and every server error. Other 4xx
 * mean the request itself is wrong and would fail the same way again.
 */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}
