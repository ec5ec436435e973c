import { performance } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import { clusterFindings } from "../../src/consensus/cluster-findings.js";
import type { Finding } from "../../src/consensus/finding.js";
import { MAX_COMPARED_PAIRS } from "../../src/consensus/link-findings.js";
import { MAX_FINDINGS_PER_LENS } from "../../src/findings/parse.js";
import { report } from "../helpers/report.js";

/*
 * The worst case the finding limit lets through: every finding of every model at one line of
 * one file, where every pair is compared. The shapes are built to hurt: "bridged" is two
 * groups (two models each) that each pair of findings links by a shared identifier, so every
 * one of those edges asks whether the two big groups merge, and the answer is always no; before
 * the group statistics were kept incrementally, each such question re-summed every cross pair
 * (cubic: 2,000 findings at one place blocked the event loop for 9.5 s).
 */

const MODELS = ["opus", "kimi", "glm", "sonnet"];
const LENSES = 5;

function atOneLine(index: number, model: string, title: string, body: string): Finding {
  return {
    file: "src/app.ts",
    line: 10,
    endLine: 10,
    severity: "medium",
    confidence: "medium",
    title,
    body,
    model,
    lens: `lens-${index % LENSES}`,
  };
}

const SHAPES: Record<string, (count: number) => Finding[]> = {
  bridged: (count) =>
    Array.from({ length: count }, (_, index) => {
      const side = index % 2;
      const model = MODELS[side * 2 + (Math.floor(index / 2) % 2)] ?? "opus";
      const title = side === 0 ? "Alpha beta problem" : "Gamma delta trouble";
      return atOneLine(index, model, title, `See \`uniqueIdent${Math.floor(index / 2)}\` here.`);
    }),
  "one claim": (count) =>
    Array.from({ length: count }, (_, index) =>
      atOneLine(
        index,
        MODELS[index % 4] ?? "opus",
        "`parseConfig` can be null",
        "The value of `parseConfig` can be null and throws.",
      ),
    ),
  "all different": (count) =>
    Array.from({ length: count }, (_, index) =>
      atOneLine(
        index,
        MODELS[index % 4] ?? "opus",
        `Issue zq${index} in \`handler${index % 12}\``,
        `Words yy${index}r and \`buffer${index % 7}\`.`,
      ),
    ),
};

/** 4 models × 50 findings: the bound the issue sets, one lens each. */
const ONE_LENS_EACH = MODELS.length * MAX_FINDINGS_PER_LENS;
/** 4 models × 5 lenses × 50: everything the limit lets through with the default lenses. */
const EVERY_LENS = ONE_LENS_EACH * LENSES;

/** 4 models × 15 lenses (5 default, 10 custom) × 50. */
const OVER_BUDGET = ONE_LENS_EACH * 15;

function timed(findings: readonly Finding[]): { ms: number; clusters: number } {
  const started = performance.now();
  const clusters = clusterFindings(findings, { modelOrder: MODELS });
  return { ms: performance.now() - started, clusters: clusters.length };
}

describe("clustering the worst case at one line", () => {
  it(`clusters ${ONE_LENS_EACH} findings in under a second and ${EVERY_LENS} without superquadratic growth`, {
    timeout: 120_000,
  }, () => {
    timed(SHAPES.bridged?.(100) ?? []); // warm the JIT
    const rows: string[] = [];
    for (const [name, make] of Object.entries(SHAPES)) {
      const small = timed(make(ONE_LENS_EACH));
      rows.push(
        `${name.padEnd(14)} ${ONE_LENS_EACH}: ${small.ms.toFixed(0).padStart(5)} ms (${small.clusters} clusters)`,
      );
      expect(small.ms, `${name}, ${ONE_LENS_EACH} findings`).toBeLessThan(1_000);
      if (name !== "bridged") continue;
      // The shape that was cubic, at five times the size: every pair is compared, so 25x the
      // time is the floor; cubic work is 125x. (Before: about 90 s here.)
      const large = timed(make(EVERY_LENS));
      rows.push(
        `${name.padEnd(14)} ${EVERY_LENS}: ${large.ms.toFixed(0).padStart(5)} ms (${large.clusters} clusters)`,
      );
      expect(large.ms / Math.max(25, small.ms), `${name}, growth`).toBeLessThan(60);
      expect(large.ms, `${name}, ${EVERY_LENS} findings`).toBeLessThan(15_000);
    }
    // Custom lenses can bring a model to 15 lenses: 3,000 findings at one line, over the pair
    // budget, are grouped by title in linear time instead of compared pairwise (4.5M pairs).
    const flood = SHAPES["all different"]?.(OVER_BUDGET) ?? [];
    const over = timed(flood);
    rows.push(
      `all different  ${OVER_BUDGET}: ${over.ms.toFixed(0).padStart(5)} ms (${over.clusters} clusters, over the pair budget)`,
    );
    expect((OVER_BUDGET * (OVER_BUDGET - 1)) / 2).toBeGreaterThan(MAX_COMPARED_PAIRS);
    expect(over.ms, `${OVER_BUDGET} findings over the budget`).toBeLessThan(5_000);
    expect(over.clusters).toBe(OVER_BUDGET);
    // The fallback still puts one claim at one place in one cluster, with every model.
    const claim = clusterFindings(SHAPES["one claim"]?.(OVER_BUDGET) ?? [], { modelOrder: MODELS });
    expect(claim.map((cluster) => [cluster.models, cluster.findings.length])).toEqual([
      [MODELS, OVER_BUDGET],
    ]);
    report("findings at one line → clustering time", ...rows);
  });

  it("keeps the shapes' clusters: agreement merges, a model's different problems stay apart", () => {
    const bridged = clusterFindings(SHAPES.bridged?.(ONE_LENS_EACH) ?? [], { modelOrder: MODELS });
    expect(bridged.map((cluster) => cluster.models)).toEqual([
      ["opus", "kimi"],
      ["glm", "sonnet"],
    ]);
    expect(clusterFindings(SHAPES["one claim"]?.(ONE_LENS_EACH) ?? [])).toHaveLength(1);
  });
});
