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
 * (commit 08dfbb1), on the bench's corpus and on the labelled corpus; re-pinned once when the
 * decisions changed on purpose (complete linkage at a floor, same-claim rule for one model's
 * findings, unsure weak merges: link-findings.ts). Any change in grouping, order, ranking,
 * naming or unsureness changes a digest.
 */
const BEFORE: Record<string, string> = {
  "bench 1k": "678 28a3198675153413376635ef1d9e9fbe",
  "bench 10k": "6728 234ff18e693299350a691a7d06e03bc1",
  "dense 3k": "1426 09a530c4ce8a67947b2a1a7554b3c3a4",
  "varied 3k": "2026 bde6eefba803b8fea280d8d583d6b82b",
  "varied dense 3k": "1555 5892575761d61f1eadc0ee025b33b83e",
  "reference-finalize": "9 07e3b5490cb7ce0be80b8460655fa71e",
  "webhook-paraphrases": "6 8808b35c84be1bf628cb33d62ffcb20b",
  "same-line-neighbours": "6 ef87639adc23e7dcf0292cdcb1a34d1a",
  "one-model-two-lenses": "5 cf42c23df607a40eda06df8c589937e4",
  "lines-apart": "6 35afe8e0f19bfdbd570e09fc0bbc352d",
  "same-title-other-files": "5 15cd73c0616c888ec26d7ff72a840c0c",
  "generic-titles": "6 b78f0182263468eef0590db0bfd4237f",
  "go-http-client": "5 09c1178d8be5c22307429e202e10e5c2",
  "react-component": "7 c5a16b86b7b5211b412846d00c1eb5f5",
  "diff-parser-duplicates": "7 ab5306ddbde7c674bbdcc99851f92a46",
  "path-confinement": "4 1cbe8ff8cc5ee5971de701d9b5f0454c",
  orchestrator: "5 4a53421416dafc68a90b52ba2c8e1888",
  "adjacent-node-handler": "6 50a67ac7887c987a92627d355c751b21",
  "adjacent-python-secrets": "5 26ca124e9e1c473e5b1b6d8a897af313",
  "adjacent-go-cache": "5 84a2462f69f0eb14d46975ca0f947713",
  "adjacent-java-service": "6 f14377cb0cfacd116476bc8ec3afff90",
  "adjacent-lone-neighbours": "4 0a1b7ca39e718ad60c50dca1a1139a33",
  "same-vocabulary-python-session": "3 6df61f5e2291dbcfee7691d79e058948",
  "second-held-out-go-retry": "3 d7086a649fedb1e9a0573f5c0722417b",
  "second-held-out-python-upload": "3 51fca6286da20f2c26c09f713744db6d",
  "cross-lens-upload": "7 6d58e2fa9390e3918f5b8c71946f94fb",
  "cross-lens-worker": "7 94b29eb367dca7a9647cce1474542214",
  "held-out-deploy-cli": "6 ac78a8a9262c85fa7ac5146b753e03d4",
  "held-out-rust-cache": "4 c6e0e909e2ed1c220bfa36331189b411",
  "held-out-c-parser": "4 fff4d9b66f51b75ebf8a0f619bf95075",
  "held-out-kotlin-repository": "4 45ab8e65731035de76dae68e6285a115",
  "held-out-ruby-params": "3 87e861db3dae44b04e7777c9cf2a1f2a",
  "held-out-ts-token": "3 f9a7ca4f3fe7fbe0d6a94e68a1628bc7",
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
