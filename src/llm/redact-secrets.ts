/** What replaces a secret in any text we keep (messages, stderr tails, recordings). */
export const REDACTED = "[redacted]";

// Shorter values are too likely to match ordinary text; real keys are much longer.
const MINIMUM_SECRET_LENGTH = 6;

/** Credential shapes that are redacted even when we do not know the value. */
const SECRET_PATTERNS: RegExp[] = [/\bBearer\s+[A-Za-z0-9._~+/=-]+/gi, /\bsk-[A-Za-z0-9_-]{8,}/g];

/**
 * Removes every occurrence of each known secret value, then anything shaped like a bearer
 * token or an `sk-` key. Providers sometimes echo the key back in an error body, so every
 * message built from a provider's words goes through here.
 */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[] = []): string {
  let result = text;
  const known = secrets
    .filter(
      (secret): secret is string => secret !== undefined && secret.length >= MINIMUM_SECRET_LENGTH,
    )
    // Longest first, so a key containing another key is removed whole.
    .sort((a, b) => b.length - a.length);
  for (const secret of known) {
    result = result.split(secret).join(REDACTED);
  }
  for (const pattern of SECRET_PATTERNS) {
    result = result.replace(pattern, (match) =>
      /^bearer/i.test(match) ? `Bearer ${REDACTED}` : REDACTED,
    );
  }
  return result;
}
