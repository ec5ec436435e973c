import { describe, expect, it } from "vitest";
import { MODELS, syntheticFindings } from "../../bench/synthetic-findings.js";
import { clusterFindings } from "../../src/consensus/cluster-findings.js";
import { clusteringDigest } from "./clustering-digest.js";
import { corpus } from "./corpus/index.js";

/*
 * Clustering was made faster (each distinct title and body read once, blocks prepared one at a
 * time, a block's token weights computed once) without changing a single decision. These are
 * the clusters count and digest (clustering-digest.ts: every cluster's fingerprint, members in
 * order, representative, models and severity) that the clustering before that change produced
 * (commit 08dfbb1), on the bench's corpus and on the labelled corpus. Any change in grouping,
 * order, ranking or naming changes a digest.
 */
const BEFORE: Record<string, string> = {
  "bench 1k": "589 c16c8a07b0fbb00b83a75c683382eb38",
  "bench 10k": "5799 d24f3d4bdc78b963e4867db47cd6115a",
  "dense 3k": "1068 19b6dea436a9f7d290abcdfb4aa2c430",
  "varied 3k": "1791 92619d17acecc2649544ad49a6d513df",
  "varied dense 3k": "1203 036e0b5089d605cffbb755fac3b23933",
  "reference-finalize": "9 590c6775e57f5bd8e1141ebeb13bb698",
  "webhook-paraphrases": "6 1fbf3e2a845b00f8d2b28738d9fe577d",
  "same-line-neighbours": "6 77abc0a2c9b52f2e4e27edc7451ba3b7",
  "one-model-two-lenses": "5 5a2b57c150b245e765fb2bdf1a1d2416",
  "lines-apart": "6 21ca916d9414e174bba7f5306cebcb30",
  "same-title-other-files": "5 53f2b8655d6a8b229c560fc41c634b18",
  "generic-titles": "6 69233f63cb41a2f35b118b62f8dfa4c1",
  "go-http-client": "5 984bdee293aa578989d4b9d5394c5f24",
  "react-component": "7 bd13d73a19e6ce689c705e074ffc9d06",
  "diff-parser-duplicates": "5 e713b6c884565a9f48750ccf1d8b64e4",
  "path-confinement": "4 e7b00829b38485c0c3a76ab9d1031e2a",
  orchestrator: "5 2a2ba9d3d97190854cc8fecd934e679f",
  "adjacent-node-handler": "6 82db299d797db1fcdeaa0daeebb86c8c",
  "adjacent-python-secrets": "5 3fb892af141e0c572a9309c343ed3fd9",
  "adjacent-go-cache": "5 c1516cb346fb1420b80fdda36a8cf503",
  "adjacent-java-service": "6 e58110c6719d76559ee83121170120b9",
  "cross-lens-upload": "7 b809390e9b3e4784622a6cce911c6cc0",
  "cross-lens-worker": "7 c2e02fa2c504906237ad6b1823a98e26",
  "held-out-deploy-cli": "6 c34da0184d4a618995e837ee304da6b8",
  "held-out-rust-cache": "4 6df52f901701136c23e5376fbcbb7ff4",
  "held-out-c-parser": "4 16f59fd8337c994f4dc39f97a2f81c4b",
};

// name, findings, seed, findings per file, subject variants (bench/synthetic-findings.ts).
const GENERATED: Array<[string, number, number, number, number]> = [
  ["bench 1k", 1_000, 1_000, 20, 1],
  ["bench 10k", 10_000, 10_000, 20, 1],
  ["dense 3k", 3_000, 3, 300, 1],
  ["varied 3k", 3_000, 11, 20, 5_000],
  ["varied dense 3k", 3_000, 12, 300, 5_000],
];

describe("clusterFindings decides exactly as before it was made faster", () => {
  it.each(GENERATED)("on the bench's corpus: %s", (name, count, seed, perFile, variants) => {
    const findings = syntheticFindings(count, seed, perFile, variants);
    const clusters = clusterFindings(findings, { modelOrder: MODELS });
    expect(`${clusters.length} ${clusteringDigest(findings, clusters)}`).toBe(BEFORE[name]);
  });

  it("on every scenario of the labelled corpus", () => {
    const now = Object.fromEntries(
      corpus.map((scenario) => {
        const clusters = clusterFindings(scenario.findings, { modelOrder: scenario.modelOrder });
        return [
          scenario.name,
          `${clusters.length} ${clusteringDigest(scenario.findings, clusters)}`,
        ];
      }),
    );
    expect(now).toEqual(
      Object.fromEntries(corpus.map((scenario) => [scenario.name, BEFORE[scenario.name]])),
    );
  });

  it("whatever order the findings arrive in", () => {
    const findings = syntheticFindings(3_000, 3, 300);
    const reversed = [...findings].reverse();
    const clusters = clusterFindings(reversed, { modelOrder: MODELS });
    expect(`${clusters.length} ${clusteringDigest(findings, clusters)}`).toBe(BEFORE["dense 3k"]);
  });
});
