import { describe, expect, it } from "vitest";
import type { LensOutcome, LensReport } from "../../src/agent/lens-report.js";
import { buildConsensus } from "../../src/consensus/build-consensus.js";
import type { LensFinding } from "../../src/findings/schema.js";
import { lensReport } from "../builders/lens-report.js";

const MODELS = ["claude-code/opus", "kimi-k2.6:cloud", "glm-5.2:cloud"];
const LENSES = ["security", "correctness", "maintainability", "performance", "error-handling"];
const PROVIDERS = {
  "claude-code/opus": "claude-code",
  "kimi-k2.6:cloud": "ollama-cloud",
  "glm-5.2:cloud": "ollama-cloud",
};

const duplication: LensFinding = {
  file: "agent/finalize.go",
  line: 131,
  endLine: 131,
  severity: "low",
  confidence: "high",
  title: "`summaryLead` duplicates the leading-marker class of `citationLabelRe`",
  body: "Hoist a shared const for `[\\s>#*_+-]*` used by `summaryLead` and `citationLabelRe`.",
};
const injection: LensFinding = {
  file: "src/run/store.ts",
  line: 30,
  endLine: 30,
  severity: "high",
  confidence: "high",
  title: "SQL injection through interpolated `prNumber`",
  body: "Bind `prNumber` as a parameter instead of interpolating it into the query.",
};

/** The report's own verdict is left null: the consensus must derive verdicts from the findings. */
function report(
  model: string,
  lens: string,
  findings: LensFinding[] = [],
  outcome: LensOutcome = "done",
): LensReport {
  return lensReport({
    model,
    provider: "from-report",
    lens,
    outcome,
    verdict: null,
    statedVerdict: null,
    text: `${lens} review by ${model}`,
    findings,
    failure: outcome === "done" ? null : "timed out after 900 s",
  });
}

const base = { modelOrder: MODELS, lensOrder: LENSES, providers: PROVIDERS };

describe("buildConsensus", () => {
  it("clusters findings of done lenses across models and attributes model and lens", () => {
    const consensus = buildConsensus({
      ...base,
      reports: [
        report("kimi-k2.6:cloud", "maintainability", [duplication]),
        report("claude-code/opus", "maintainability", [
          { ...duplication, line: 133, endLine: 133 },
        ]),
        report("claude-code/opus", "security", [injection]),
      ],
    });
    expect(consensus.clusters.map((cluster) => cluster.models)).toEqual([
      ["claude-code/opus", "kimi-k2.6:cloud"],
      ["claude-code/opus"],
    ]);
    expect(consensus.clusters[1]?.representative).toMatchObject({
      ...injection,
      model: "claude-code/opus",
      lens: "security",
    });
    expect(consensus.verdict).toBe("Significant issues");
    expect(consensus.comparison).toBeNull();
  });

  it("ignores the findings of failed and cancelled lenses", () => {
    const consensus = buildConsensus({
      ...base,
      reports: [
        report("claude-code/opus", "security", [injection], "failed"),
        report("claude-code/opus", "correctness", [injection], "cancelled"),
        report("claude-code/opus", "maintainability"),
      ],
    });
    expect(consensus.clusters).toEqual([]);
    expect(consensus.verdict).toBe("No material issues found");
  });

  it("summarises every model in config order, lenses in config order, with its provider", () => {
    const consensus = buildConsensus({
      ...base,
      reports: [
        report("glm-5.2:cloud", "error-handling"),
        report("zeta-model", "security"),
        report("claude-code/opus", "performance", [duplication]),
        report("claude-code/opus", "custom-lens"),
        report("claude-code/opus", "security"),
      ],
    });
    expect(consensus.models.map((summary) => summary.model)).toEqual([...MODELS, "zeta-model"]);
    expect(consensus.models[0]?.lenses.map((lens) => lens.lens)).toEqual([
      "security",
      "performance",
      "custom-lens",
    ]);
    expect(consensus.models.map((summary) => summary.provider)).toEqual([
      "claude-code",
      "ollama-cloud",
      "ollama-cloud",
      "from-report",
    ]);
    expect(consensus.models.map((summary) => summary.verdict)).toEqual([
      "Minor issues",
      null,
      "No material issues found",
      "No material issues found",
    ]);
  });

  it("counts only models with at least one done lens", () => {
    const consensus = buildConsensus({
      ...base,
      reports: [
        report("claude-code/opus", "security"),
        report("kimi-k2.6:cloud", "security", [], "failed"),
        report("kimi-k2.6:cloud", "correctness", [], "cancelled"),
        report("glm-5.2:cloud", "security", [], "failed"),
        report("glm-5.2:cloud", "correctness", [duplication]),
      ],
    });
    expect(consensus.modelCount).toBe(2);
    expect(consensus.models[1]?.verdict).toBeNull();
    expect(consensus.models[1]?.lenses).toHaveLength(2);
  });

  it("compares with the previous round when there is one", () => {
    const first = buildConsensus({
      ...base,
      reports: [report("claude-code/opus", "security", [injection, duplication])],
    });
    const previousFindings = first.clusters.map((cluster) => ({
      fingerprint: cluster.fingerprint,
      title: cluster.representative.title,
      file: cluster.representative.file,
      line: cluster.representative.line,
      severity: cluster.severity,
    }));
    const moved = { ...injection, line: 70, endLine: 70 };
    const second = buildConsensus({
      ...base,
      reports: [report("kimi-k2.6:cloud", "security", [moved])],
      previous: { headSha: "1111111", round: 1, findings: previousFindings },
    });
    expect(second.comparison?.round).toBe(2);
    expect(second.comparison?.previousHeadSha).toBe("1111111");
    expect(second.comparison?.stillOpen.map((cluster) => cluster.representative.line)).toEqual([
      70,
    ]);
    expect(second.comparison?.fixed.map((finding) => finding.title)).toEqual([duplication.title]);
    expect(second.comparison?.fresh).toEqual([]);
    expect(second.clusters).toEqual(second.comparison?.stillOpen);

    const numbered = buildConsensus({
      ...base,
      reports: [],
      round: 4,
      previous: { headSha: "1111111", round: 2, findings: previousFindings },
    });
    expect(numbered.comparison?.round).toBe(4);
    expect(numbered.comparison?.fixed).toHaveLength(2);
  });
});
