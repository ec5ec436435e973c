import { describe, expect, it } from "vitest";
import {
  EVERY_LENS,
  WORST_CASE_MODELS as MODELS,
  ONE_LENS_EACH,
  OVER_BUDGET,
  WORST_CASE_SHAPES as SHAPES,
} from "../../bench/worst-case-findings.js";
import { clusterFindings } from "../../src/consensus/cluster-findings.js";
import { MAX_COMPARED_PAIRS } from "../../src/consensus/link-findings.js";

/*
 * The worst case the finding limit lets through, every finding of every model at one line
 * (bench/worst-case-findings.ts has the shapes and why they hurt): what it clusters into. How
 * long it takes is the worst-case bench's (`npm run bench -- worst-cases`), judged against
 * parse-diff's time on the same machine.
 */

describe("clustering the worst case at one line", () => {
  it(`clusters ${EVERY_LENS} bridged findings as two groups, and ${OVER_BUDGET} past the pair budget by claim`, {
    timeout: 120_000,
  }, () => {
    // The shape that was cubic, at five times the size: still two groups, never one.
    const large = clusterFindings(SHAPES.bridged(EVERY_LENS), { modelOrder: MODELS });
    expect(large.map((cluster) => [cluster.models, cluster.findings.length])).toEqual([
      [["opus", "kimi"], EVERY_LENS / 2],
      [["glm", "sonnet"], EVERY_LENS / 2],
    ]);
    // Custom lenses can bring a model to 15 lenses: 3,000 findings at one line are over the
    // pair budget (4.5M pairs), so they are grouped by claim instead of compared pairwise.
    expect((OVER_BUDGET * (OVER_BUDGET - 1)) / 2).toBeGreaterThan(MAX_COMPARED_PAIRS);
    const over = clusterFindings(SHAPES["all different"](OVER_BUDGET), { modelOrder: MODELS });
    expect(over).toHaveLength(OVER_BUDGET);
    // The fallback still puts one claim at one place in one cluster, with every model.
    const claim = clusterFindings(SHAPES["one claim"](OVER_BUDGET), { modelOrder: MODELS });
    expect(claim.map((cluster) => [cluster.models, cluster.findings.length])).toEqual([
      [MODELS, OVER_BUDGET],
    ]);
  });

  it("keeps the shapes' clusters: agreement merges, a model's different problems stay apart", () => {
    const bridged = clusterFindings(SHAPES.bridged(ONE_LENS_EACH), { modelOrder: MODELS });
    expect(bridged.map((cluster) => cluster.models)).toEqual([
      ["opus", "kimi"],
      ["glm", "sonnet"],
    ]);
    expect(clusterFindings(SHAPES["one claim"](ONE_LENS_EACH))).toHaveLength(1);
  });
});
