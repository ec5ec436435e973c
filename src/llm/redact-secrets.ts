/** What replaces a secret in any text we keep (messages, stderr tails, recordings). */
export const REDACTED = "[redacted]";

// Shorter values are too likely to match ordinary text; real keys are much longer.
const MINIMUM_SECRET_LENGTH = 6;

/**
 * Credential shapes that are redacted even when we do not know the value: secrets
 * made after start-up (installation tokens) and ones a model found elsewhere. `mark` is a
 * literal every match contains: a text without it is not searched (most texts, tens of KB
 * of diff summary among them, contain none). The shapes whose own search is already as
 * cheap as looking for a literal (bearer, `sk-`, GitHub tokens) have none.
 */
const SECRET_PATTERNS: readonly { mark?: string; pattern: RegExp; replacement: string }[] = [
  // A private key block, or the start of one cut short.
  {
    mark: "PRIVATE KEY-----",
    pattern:
      /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g,
    replacement: REDACTED,
  },
  { pattern: /\bBearer\s+[A-Za-z0-9._~+/=-]+/gi, replacement: `Bearer ${REDACTED}` },
  { pattern: /\bsk-[A-Za-z0-9_-]{8,}/g, replacement: REDACTED },
  // GitHub installation (ghs_), personal (ghp_), OAuth (gho_), user (ghu_), refresh (ghr_) tokens.
  { pattern: /\bgh[pousr]_[A-Za-z0-9]{20,}/g, replacement: REDACTED },
  { mark: "github_pat_", pattern: /\bgithub_pat_[A-Za-z0-9_]{20,}/g, replacement: REDACTED },
  // A JSON Web Token (the App's own JWT is a credential for ten minutes).
  {
    mark: ".eyJ",
    pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
    replacement: REDACTED,
  },
];

/**
 * The password of any URL: `postgres://gadfly:hunter2@db/…`, `https://x-access-token:…@github.com`.
 * Sticky: tried only just before each `://` (redactUrlPasswords), not at every word of the text.
 */
const URL_PASSWORD = /\b([A-Za-z][A-Za-z0-9+.-]{1,20}:\/\/[^\s:/?#@]*:)[^\s/?#@]+@/y;
// The scheme is a letter and 1 to 20 more characters, so a match starts 2 to 21 before its `://`.
const LONGEST_SCHEME = 21;

/**
 * `text.replace(/\b([A-Za-z][A-Za-z0-9+.-]{1,20}:\/\/[^\s:/?#@]*:)[^\s/?#@]+@/g, "$1[redacted]@")`
 * with the same matches, found from each `://`: a global search tries the scheme's two first
 * characters at every word boundary, which on a long text costs more than all other shapes
 * together. A match must use the first `://` at least 2 past where the search stands (the
 * scheme holds no `:`), so only the 20 starts before it can match, leftmost first; when none
 * does, no match starts before that `://`'s colon.
 */
function redactUrlPasswords(text: string): string {
  let redacted = "";
  let copied = 0;
  let from = 0;
  for (
    let separator = text.indexOf("://", from + 2);
    separator !== -1;
    separator = text.indexOf("://", from + 2)
  ) {
    let start = Math.max(from, separator - LONGEST_SCHEME);
    let match: RegExpExecArray | null = null;
    for (; start <= separator - 2 && match === null; start += 1) {
      URL_PASSWORD.lastIndex = start;
      match = URL_PASSWORD.exec(text);
    }
    if (match === null) {
      from = separator - 1;
      continue;
    }
    start = match.index;
    redacted += `${text.slice(copied, start)}${match[1]}${REDACTED}@`;
    from = copied = start + match[0].length;
  }
  return copied === 0 ? text : redacted + text.slice(copied);
}

/** Redacts one text; built once by createRedactor, then called per line, field or message. */
export type Redactor = (text: string) => string;

/**
 * Prepares `secrets` once (too-short and absent values dropped, the rest longest first, so
 * a key containing another key is removed whole) and returns a redactor that removes every
 * occurrence of each, then anything shaped like a credential (a private key, a bearer or
 * `sk-` key, a GitHub token, a JWT, a URL's password). Every text built from a model's or a
 * provider's words, every log line and every stored transcript goes through one. The list
 * is copied: changing it afterwards does not change the redactor.
 */
export function createRedactor(secrets: readonly (string | undefined)[] = []): Redactor {
  const known = secrets
    .filter(
      (secret): secret is string => secret !== undefined && secret.length >= MINIMUM_SECRET_LENGTH,
    )
    .sort((a, b) => b.length - a.length);
  return (text) => {
    let result = text;
    for (const secret of known) {
      if (result.includes(secret)) result = result.split(secret).join(REDACTED);
    }
    for (const { mark, pattern, replacement } of SECRET_PATTERNS) {
      if (mark === undefined || result.includes(mark)) {
        result = result.replace(pattern, replacement);
      }
    }
    return result.includes("://") ? redactUrlPasswords(result) : result;
  };
}

/**
 * One text, redacted as createRedactor(secrets) would: for a single text (an error
 * message, a stderr tail). Code that redacts many texts with the same secrets builds
 * its redactor once instead.
 */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[] = []): string {
  return createRedactor(secrets)(text);
}
