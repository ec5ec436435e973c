/**
 * Clustering throughput: 1k, 10k and 50k synthetic findings at ~20 findings per file, the
 * density of a large review. Prints a table and one JSON line; exits 1 when 10k findings take
 * a second or more. Run: `npx tsx bench/clustering.ts`.
 */
import { performance } from "node:perf_hooks";
import { clusterFindings } from "../src/consensus/cluster-findings.js";
import type { Finding } from "../src/consensus/finding.js";
import type { Confidence, Severity } from "../src/findings/schema.js";

const FINDINGS_PER_FILE = 20;
const MODELS = ["claude-code/opus", "kimi-k2.6:cloud", "claude-code/sonnet", "glm-5.2:cloud"];
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
function syntheticFindings(count: number, seed: number): Finding[] {
  const next = random(seed);
  const findings: Finding[] = [];
  const files = Math.max(1, Math.round(count / FINDINGS_PER_FILE));
  while (findings.length < count) {
    const file = `src/module-${Math.floor(next() * files)}/file.ts`;
    const subject = pick(SUBJECTS, next);
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

function timeClustering(
  findings: readonly Finding[],
  runs: number,
): { ms: number; clusters: number } {
  let best = Number.POSITIVE_INFINITY;
  let clusters = 0;
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    clusters = clusterFindings(findings, { modelOrder: MODELS }).length;
    best = Math.min(best, performance.now() - started);
  }
  return { ms: best, clusters };
}

const sizes = [1_000, 10_000, 50_000];
timeClustering(syntheticFindings(1_000, 7), 2); // warm the JIT
const results = sizes.map((size) => {
  const findings = syntheticFindings(size, size);
  const { ms, clusters } = timeClustering(findings, size >= 50_000 ? 1 : 3);
  return {
    findings: size,
    files: Math.round(size / FINDINGS_PER_FILE),
    clusters,
    ms: Math.round(ms),
  };
});

const growth = results.slice(1).map((result, index) => {
  const previous = results[index];
  const sizeRatio = previous === undefined ? 1 : result.findings / previous.findings;
  const timeRatio = previous === undefined ? 1 : result.ms / Math.max(1, previous.ms);
  return {
    from: previous?.findings,
    to: result.findings,
    sizeRatio,
    timeRatio: Number(timeRatio.toFixed(2)),
  };
});

console.log("findings  files  clusters      ms  growth (time ratio / size ratio)");
for (const [index, result] of results.entries()) {
  const step = index === 0 ? undefined : growth[index - 1];
  const ratio = step === undefined ? "" : `${step.timeRatio}x / ${step.sizeRatio}x`;
  console.log(
    `${String(result.findings).padStart(8)}  ${String(result.files).padStart(5)}  ${String(result.clusters).padStart(8)}  ${String(result.ms).padStart(6)}  ${ratio}`,
  );
}
const tenThousand = results.find((result) => result.findings === 10_000);
const withinBudget = tenThousand !== undefined && tenThousand.ms < 1_000;
console.log(
  JSON.stringify({ bench: "clustering", results, growth, budgetMs: 1_000, withinBudget }),
);
if (!withinBudget) {
  console.error("clustering 10k findings took 1 s or more");
  process.exitCode = 1;
}
