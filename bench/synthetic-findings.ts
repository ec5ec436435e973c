/**
 * The clustering benchmark's corpus: problems at random places, each reported by one to four
 * models in varied words, ~20 findings per file (the density of a large review). Seeded, so a
 * test can pin what clustering makes of it (test/consensus/cluster-findings.identity.test.ts).
 */
import type { Finding } from "../src/consensus/finding.js";
import type { Confidence, Severity } from "../src/findings/schema.js";

export const FINDINGS_PER_FILE = 20;
export const MODELS = [
  "claude-code/opus",
  "kimi-k2.6:cloud",
  "claude-code/sonnet",
  "glm-5.2:cloud",
];
const LENSES = ["security", "correctness", "maintainability", "performance", "error-handling"];
const SEVERITIES: Severity[] = ["high", "medium", "low", "nit"];
const CONFIDENCES: Confidence[] = ["high", "medium", "low"];
const SUBJECTS = [
  "parseConfig",
  "user_id",
  "retryCount",
  "fetchSnapshot",
  "resp.Body",
  "summaryLead",
  "cache.get",
  "handleWebhook",
  "token",
  "renderTable",
  "db.prepare",
  "maxTurns",
];
const TITLES = [
  "`{s}` can be null and is dereferenced",
  "Missing null check on `{s}`",
  "SQL built by interpolating `{s}`",
  "`{s}` is recomputed inside the loop (quadratic)",
  "Error from `{s}` is swallowed silently",
  "Magic number passed to `{s}`",
  "`{s}` duplicated in two places; extract a shared helper",
  "Unbounded read in `{s}` without a size limit",
];
const BODY = [
  "The value returned by `{s}` is used without a guard, so an empty response throws a TypeError.",
  "Callers of {s} assume it never fails; a rejected promise leaves the board stuck.",
  "Under load this runs once per item and dominates the request time.",
  "Consider a named constant and a test that pins the behaviour.",
];

/** Deterministic PRNG (mulberry32) so runs compare. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(items: readonly T[], next: () => number): T {
  const item = items[Math.floor(next() * items.length)];
  if (item === undefined) {
    throw new Error("empty pool");
  }
  return item;
}

/** Problems at random places, each reported by one to four models in varied words. */
export function syntheticFindings(
  count: number,
  seed: number,
  findingsPerFile = FINDINGS_PER_FILE,
  /** Over 1, each problem's subject gets one of this many numeric suffixes: fewer texts repeat. */
  subjectVariants = 1,
): Finding[] {
  const next = random(seed);
  const findings: Finding[] = [];
  const files = Math.max(1, Math.round(count / findingsPerFile));
  while (findings.length < count) {
    const file = `src/module-${Math.floor(next() * files)}/file.ts`;
    const subject =
      subjectVariants > 1
        ? `${pick(SUBJECTS, next)}${Math.floor(next() * subjectVariants)}`
        : pick(SUBJECTS, next);
    const line = 1 + Math.floor(next() * 800);
    const reporters = 1 + Math.floor(next() * MODELS.length);
    for (let r = 0; r < reporters && findings.length < count; r += 1) {
      const start = line + Math.floor(next() * 4);
      findings.push({
        file,
        line: start,
        endLine: start + Math.floor(next() * 3),
        severity: pick(SEVERITIES, next),
        confidence: pick(CONFIDENCES, next),
        title: pick(TITLES, next).replace("{s}", subject),
        body: `${pick(BODY, next)} ${pick(BODY, next)}`.replaceAll("{s}", subject),
        model: pick(MODELS, next),
        lens: pick(LENSES, next),
      });
    }
  }
  return findings;
}
