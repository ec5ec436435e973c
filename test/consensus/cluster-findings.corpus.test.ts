import { describe, expect, it } from "vitest";
import { clusterFindings } from "../../src/consensus/cluster-findings.js";
import { reportTable } from "../helpers/report.js";
import { corpus } from "./corpus/index.js";
import {
  type PairCounts,
  pairwiseAgreement,
  precision,
  recall,
} from "./corpus/pairwise-agreement.js";

const MINIMUM = 0.95;

const pairCount = (count: number): number => (count * (count - 1)) / 2;

describe("clusterFindings on the labelled corpus", () => {
  const rows = corpus.map((scenario) => {
    const clusters = clusterFindings(scenario.findings, { modelOrder: scenario.modelOrder });
    return { scenario, clusters, counts: pairwiseAgreement(scenario.findings, clusters) };
  });
  const sum = (counts: readonly PairCounts[]): PairCounts =>
    counts.reduce<PairCounts>(
      (total, each) => ({
        truePositives: total.truePositives + each.truePositives,
        falsePositives: total.falsePositives + each.falsePositives,
        falseNegatives: total.falseNegatives + each.falseNegatives,
      }),
      { truePositives: 0, falsePositives: 0, falseNegatives: 0 },
    );
  const total = sum(rows.map((row) => row.counts));

  it("is a corpus of at least 250 findings in at least 20 scenarios", () => {
    expect(corpus.length).toBeGreaterThanOrEqual(20);
    expect(corpus.flatMap((scenario) => scenario.findings).length).toBeGreaterThanOrEqual(250);
  });

  it(`reaches pairwise precision and recall of at least ${MINIMUM}`, () => {
    const table = rows.map(({ scenario, counts }) => ({
      scenario: scenario.name,
      findings: scenario.findings.length,
      precision: Number(precision(counts).toFixed(3)),
      recall: Number(recall(counts).toFixed(3)),
      ...counts,
    }));
    table.push({
      scenario: "TOTAL",
      findings: corpus.reduce((sum, scenario) => sum + scenario.findings.length, 0),
      precision: Number(precision(total).toFixed(3)),
      recall: Number(recall(total).toFixed(3)),
      ...total,
    });
    reportTable(table);
    const pairs = corpus.reduce((sum, scenario) => sum + pairCount(scenario.findings.length), 0);
    const adjacent = sum(
      rows.filter(({ scenario }) => scenario.name.startsWith("adjacent-")).map((row) => row.counts),
    );
    console.log(
      `clustering corpus: precision ${precision(total).toFixed(3)} recall ${recall(total).toFixed(3)} over ${pairs} pairs (adjacent-but-distinct scenarios: precision ${precision(adjacent).toFixed(3)})`,
    );
    expect(precision(total)).toBeGreaterThanOrEqual(MINIMUM);
    expect(recall(total)).toBeGreaterThanOrEqual(MINIMUM);
  });

  it("keeps identical titles in different files apart", () => {
    const row = rows.find(({ scenario }) => scenario.name === "same-title-other-files");
    for (const cluster of row?.clusters ?? []) {
      expect(new Set(cluster.findings.map((finding) => finding.file)).size).toBe(1);
    }
    expect(row?.counts.falsePositives).toBe(0);
  });

  it("never merges two different problems a few lines apart in one function", () => {
    const adjacent = rows.filter(({ scenario }) => scenario.name.startsWith("adjacent-"));
    expect(adjacent.length).toBeGreaterThanOrEqual(4);
    const falseMerges = adjacent.map(({ scenario, counts }) => [
      scenario.name,
      counts.falsePositives,
    ]);
    expect(falseMerges).toEqual(adjacent.map(({ scenario }) => [scenario.name, 0]));
  });

  it("finds the reference page's two multi-model clusters", () => {
    const row = rows.find(({ scenario }) => scenario.name === "reference-finalize");
    const clusterWith = (text: string) =>
      row?.clusters.find((cluster) =>
        cluster.findings.some((finding) => finding.title.includes(text)),
      );
    const duplication = clusterWith("Leading-marker char class");
    expect(duplication?.models).toEqual([
      "claude-code/opus",
      "claude-code/sonnet",
      "glm-5.2:cloud",
    ]);
    expect(duplication?.findings.map((finding) => finding.line).sort()).toContain(156);
    expect(clusterWith("Empty isWeakFinal case")?.models).toEqual([
      "claude-code/opus",
      "claude-code/sonnet",
    ]);
    // Ranked first: the most models.
    expect(row?.clusters[0]).toBe(duplication);
  });

  it("counts a model once when it reports one problem under two lenses", () => {
    const row = rows.find(({ scenario }) => scenario.name === "one-model-two-lenses");
    const injection = row?.clusters.find((cluster) =>
      cluster.findings.some((finding) => finding.title.startsWith("SQL injection")),
    );
    expect(injection?.findings).toHaveLength(4);
    expect(injection?.models).toEqual(["claude-code/opus", "kimi-k2.6:cloud", "glm-5.2:cloud"]);
  });
});
