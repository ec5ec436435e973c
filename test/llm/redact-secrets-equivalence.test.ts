import { describe, expect, it } from "vitest";
import { createRedactor } from "../../src/llm/redact-secrets.js";

// The redactor as it was before it skipped texts without a shape's mark and found URL passwords
// from each `://`: every pattern over the whole text. The fast one must give the same output for
// every input; this is what it is checked against.
const REFERENCE_PATTERNS: readonly { pattern: RegExp; replacement: string }[] = [
  {
    pattern:
      /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g,
    replacement: "[redacted]",
  },
  { pattern: /\bBearer\s+[A-Za-z0-9._~+/=-]+/gi, replacement: "Bearer [redacted]" },
  { pattern: /\bsk-[A-Za-z0-9_-]{8,}/g, replacement: "[redacted]" },
  { pattern: /\bgh[pousr]_[A-Za-z0-9]{20,}/g, replacement: "[redacted]" },
  { pattern: /\bgithub_pat_[A-Za-z0-9_]{20,}/g, replacement: "[redacted]" },
  {
    pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
    replacement: "[redacted]",
  },
  {
    pattern: /\b([A-Za-z][A-Za-z0-9+.-]{1,20}:\/\/[^\s:/?#@]*:)[^\s/?#@]+@/g,
    replacement: "$1[redacted]@",
  },
];

function referenceRedactor(secrets: readonly (string | undefined)[]): (text: string) => string {
  const known = secrets
    .filter((secret): secret is string => secret !== undefined && secret.length >= 6)
    .sort((a, b) => b.length - a.length);
  return (text) => {
    let result = text;
    for (const secret of known) {
      if (result.includes(secret)) result = result.split(secret).join("[redacted]");
    }
    for (const { pattern, replacement } of REFERENCE_PATTERNS) {
      result = result.replace(pattern, replacement);
    }
    return result;
  };
}

/** A seeded generator (mulberry32): the same texts on every run, so a failure reproduces. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const KNOWN = ["k3y-VALUE-that-is-long", "abcdef", "abcdef123456", "hunter2pass"];
const ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const SCHEME = `${ALNUM}+.-`;
const SEPARATORS = [" ", "\n", "\t", "/", ":", "@", "?", "#", ".", "-", "+", "_", "=", "~"];
const MORE_SEPARATORS = ['"', "'", "(", ")", "é", "\u00a0", "\u2028", "//", "::", "@@", ":/"];
// Parts of the shapes and their near misses: each alone, or next to a word, makes some texts
// match and many almost match.
const PIECES = [
  "://",
  ":/",
  "https",
  "postgres",
  "git+ssh",
  "x-access-token",
  "Bearer",
  "bearer",
  "BEARER",
  "bEaReR",
  "Bearer ",
  "sk-",
  "sk",
  "gh",
  "ghp_",
  "ghs_",
  "gho_",
  "ghu_",
  "ghr_",
  "ghx_",
  "github_pat_",
  "github_pat",
  "eyJ",
  ".eyJ",
  "eyJhbGciOiJIUzI1NiJ9",
  "-----BEGIN RSA PRIVATE KEY-----",
  "-----BEGIN PRIVATE KEY-----",
  "-----END RSA PRIVATE KEY-----",
  "-----END PRIVATE KEY-----",
  "PRIVATE KEY-----",
  "-----BEGIN ",
  "-----BEGIN rsa PRIVATE KEY-----",
  ...KNOWN,
  "abcde",
  "k3y-VALUE",
];

function generator(seed: number) {
  const random = seeded(seed);
  const below = (n: number) => Math.floor(random() * n);
  const pick = <T>(items: readonly T[]): T => items[below(items.length)] as T;
  const run = (alphabet: string, length: number) =>
    Array.from({ length }, () => alphabet[below(alphabet.length)]).join("");
  const word = () => run(ALNUM, 1 + below(random() < 0.2 ? 45 : 12));
  // Whole shapes, some valid and some just outside a bound (a 21-character scheme, a 19-character
  // token), so both sides of each bound are seen.
  const shape = (): string => {
    switch (below(8)) {
      case 0: {
        const scheme = pick(["a", ""]) + run(SCHEME, below(24));
        const user = below(3) === 0 ? "" : run(`${ALNUM}-._~%`, below(12));
        const password = run(`${ALNUM}-._~%:+!$&=`, below(14));
        return `${scheme}://${user}${pick([":", ""])}${password}${pick(["@", "@@", "", "/@"])}${word()}`;
      }
      case 1:
        return `eyJ${run(`${ALNUM}_-`, 6 + below(6))}.eyJ${run(`${ALNUM}_-`, 6 + below(6))}.${run(`${ALNUM}_-`, 6 + below(6))}`;
      case 2:
        return `gh${pick(["p", "o", "u", "s", "r", "x"])}_${run(ALNUM, 17 + below(6))}`;
      case 3:
        return `github_pat_${run(`${ALNUM}_`, 17 + below(6))}`;
      case 4:
        return `${pick(["Bearer", "bearer", "BEARER", "beaRer"])}${pick([" ", "\t", "\n", "", "  "])}${run(`${ALNUM}._~+/=-`, below(20))}`;
      case 5:
        return `sk-${run(`${ALNUM}_-`, 5 + below(8))}`;
      case 6:
        return `-----BEGIN ${pick(["RSA ", "", "EC ", "OPENSSH "])}PRIVATE KEY-----\n${word()}\n${pick(["-----END RSA PRIVATE KEY-----", "-----END PRIVATE KEY-----", ""])}`;
      default:
        return pick(KNOWN) + pick(["", word()]);
    }
  };
  const token = (): string => {
    const roll = random();
    if (roll < 0.3) return word();
    if (roll < 0.55) return pick(SEPARATORS);
    if (roll < 0.6) return pick(MORE_SEPARATORS);
    if (roll < 0.8) return pick(PIECES);
    return shape();
  };
  return (): string => {
    const text = Array.from({ length: below(40) }, token).join("");
    // Some long texts: the shapes far from the start, as in a diff summary.
    return random() < 0.05 ? text.repeat(20 + below(40)) : text;
  };
}

describe("createRedactor (same output as every pattern over the whole text)", () => {
  it("redacts thousands of generated texts, shapes and near misses, exactly as the reference does", () => {
    const next = generator(20261201);
    const texts = Array.from({ length: 20_000 }, next);
    // The generator must reach every shape, or the comparison proves nothing about it.
    for (const { pattern } of REFERENCE_PATTERNS) {
      const hits = texts.filter((text) => text.search(pattern) !== -1).length;
      expect(hits, String(pattern)).toBeGreaterThan(200);
      expect(hits, String(pattern)).toBeLessThan(texts.length / 2);
    }
    for (const secrets of [[], KNOWN, ["abcdef"], ["hunter2pass", undefined, "x"]]) {
      const fast = createRedactor(secrets);
      const reference = referenceRedactor(secrets);
      for (const text of texts) {
        const expected = reference(text);
        // Compared as a pair so a failure shows the text it was about.
        if (fast(text) !== expected) {
          expect({ text, redacted: fast(text) }).toEqual({ text, redacted: expected });
        }
      }
    }
  });

  it("finds URL passwords as the whole-text search does at the bounds of the scheme and of the text", () => {
    const reference = referenceRedactor([]);
    const fast = createRedactor([]);
    const twenty = "abcdefghijklmnopqrst";
    for (const text of [
      "https://u:p@h",
      "ht://u:p@h",
      "h://u:p@h",
      "://u:p@h",
      `a${twenty}://u:p@h`,
      `ab${twenty}://u:p@h`,
      `a.b${twenty}://u:p@h`,
      `x-y.${twenty}://u:p@h`,
      "_https://u:p@h",
      "9https://u:p@h",
      "a://b://u:p@h",
      "https://:@h",
      "https://u:@h",
      "https://u:p@h https://v:q@i",
      "https://u:p@https://v:q@i",
      "https://u:p:q@h",
      "https://u/p:q@h",
      "https://u:p/q@h",
      "https://u:p q@h",
      "https://u:p@",
      "x https://u:p@h y postgres://gadfly:hunter2@db/x z",
      "https://u:p\u00a0@h",
      "é://u:p@h",
      "aé://u:p@h",
      "ab://",
      "ab:/",
      "ab:///:p@h",
    ]) {
      expect(fast(text), text).toBe(reference(text));
    }
  });
});
