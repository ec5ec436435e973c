import type { LensReport } from "../../src/agent/index.js";
import type { Finding } from "../../src/consensus/finding.js";
import type { Cluster, Consensus } from "../../src/consensus/index.js";
import type { LensFinding } from "../../src/findings/index.js";
import { lensFinding } from "./finding.js";
import { lensReport } from "./lens-report.js";

/**
 * A cluster of `findings`, the first one its representative. The models default to
 * the findings' models in the order they first appear.
 */
export function cluster(
  fingerprint: string,
  findings: Finding[],
  models: string[] = [...new Set(findings.map((finding) => finding.model))],
): Cluster {
  const [representative] = findings;
  if (representative === undefined) throw new Error("a cluster needs a finding");
  return { fingerprint, findings, models, representative, severity: representative.severity };
}

/** One model's report for `sampleConsensus`: a done lens also shows one finding verify dropped. */
function modelReport(
  model: string,
  lens: string,
  outcome: LensReport["outcome"],
  findings: LensFinding[] = [],
  failure: string | null = null,
): LensReport {
  return lensReport({
    model,
    provider: `${model.split("/")[0]}-provider`,
    lens,
    outcome,
    text: `Review of ${lens} by ${model}.`,
    findings,
    dropped: outcome === "done" ? [lensFinding({ title: "Dropped by verify" })] : [],
    failure,
    turns: 4,
    usage: { inputTokens: 1200, outputTokens: 300 },
  });
}

const SQL = lensFinding({
  file: "src/db.ts",
  line: 12,
  endLine: 14,
  severity: "high",
  confidence: "high",
  title: "SQL built from user input",
  body: "The query concatenates `name`.\n\nAn attacker controls it.\nUse a parameter.\nSee the docs.\nFifth line.",
});
const SQL_AGAIN = { ...SQL, line: 13, endLine: 13, title: "Injection in the lookup query" };
const ODD_PATH = lensFinding({
  file: "./dir with space/a#b?.ts",
  line: 3,
  endLine: 3,
  severity: "medium",
  title: "Off by one in the loop",
});
const HOSTILE = lensFinding({
  file: "lib/x.ts",
  line: 7,
  endLine: 5,
  severity: "nit",
  title: "Evil \x1b[2J\x1b]0;pwned\x07title\u202e",
  body: "Body \x1b[31mred\x1b[0m\rend",
});

/**
 * Three models, two lenses; model C failed everywhere (so it does not count: modelCount 2).
 * Findings: one agreed by A and B (high), two single-model ones, one under a lens nobody
 * configured and with hostile terminal sequences in its text.
 */
export function sampleConsensus(): Consensus {
  const reportsA = [
    modelReport("a/model", "security", "done", [SQL]),
    modelReport("a/model", "correctness", "done", [ODD_PATH]),
  ];
  const reportsB = [
    modelReport("b/model", "security", "done", [SQL_AGAIN, HOSTILE]),
    modelReport("b/model", "correctness", "failed", [], "timed out after 900 s"),
  ];
  const reportsC = [
    modelReport("c/model", "security", "failed", [], "HTTP 401 from the provider"),
    modelReport("c/model", "correctness", "cancelled", [], null),
  ];
  return {
    models: [
      { model: "a/model", provider: "a-provider", verdict: "Significant issues", lenses: reportsA },
      { model: "b/model", provider: "b-provider", verdict: "Significant issues", lenses: reportsB },
      { model: "c/model", provider: "c-provider", verdict: null, lenses: reportsC },
    ],
    modelCount: 2,
    verdict: "Significant issues",
    clusters: [
      cluster(
        "fp-sql",
        [
          { ...SQL, model: "a/model", lens: "security" },
          { ...SQL_AGAIN, model: "b/model", lens: "security" },
        ],
        ["a/model", "b/model"],
      ),
      cluster("fp-odd", [{ ...ODD_PATH, model: "a/model", lens: "correctness" }], ["a/model"]),
      cluster("fp-hostile", [{ ...HOSTILE, model: "b/model", lens: "naming" }], ["b/model"]),
    ],
    comparison: null,
  };
}
