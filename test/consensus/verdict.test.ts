import { describe, expect, it } from "vitest";
import type { LensReport } from "../../src/agent/lens-report.js";
import type { Cluster } from "../../src/consensus/cluster.js";
import { lensVerdict, modelVerdict, overallVerdict } from "../../src/consensus/verdict.js";
import type { Severity } from "../../src/findings/schema.js";
import { makeFinding } from "../builders/finding.js";
import { lensReport } from "../builders/lens-report.js";

const finding = (severity: Severity) => makeFinding({ severity });

/** The report's own verdict is left null: the model's verdict must come from the findings. */
function report(outcome: LensReport["outcome"], severities: Severity[]): LensReport {
  return lensReport({
    model: "opus",
    provider: "claude-code",
    outcome,
    verdict: null,
    statedVerdict: null,
    findings: severities.map(finding),
    failure: outcome === "done" ? null : "timed out after 900 s",
  });
}

const cluster = (severity: Severity): Cluster => {
  const member = finding(severity);
  return {
    fingerprint: "f",
    findings: [member],
    models: ["opus"],
    representative: member,
    severity,
  };
};

describe("lensVerdict", () => {
  it("is significant with any high finding, minor with any finding, clean with none", () => {
    expect(lensVerdict([finding("low"), finding("high")])).toBe("Significant issues");
    expect(lensVerdict([finding("nit")])).toBe("Minor issues");
    expect(lensVerdict([])).toBe("No material issues found");
  });
});

describe("modelVerdict", () => {
  it("is the worst verdict of the done lenses", () => {
    expect(modelVerdict([report("done", []), report("done", ["low"])])).toBe("Minor issues");
    expect(modelVerdict([report("done", ["medium"]), report("done", ["high"])])).toBe(
      "Significant issues",
    );
  });

  it("ignores failed and cancelled lenses, even with findings", () => {
    expect(modelVerdict([report("done", []), report("failed", ["high"])])).toBe(
      "No material issues found",
    );
  });

  it("is null when no lens is done", () => {
    expect(modelVerdict([report("failed", []), report("cancelled", [])])).toBeNull();
    expect(modelVerdict([])).toBeNull();
  });
});

describe("overallVerdict", () => {
  it("follows the clusters' severities", () => {
    expect(overallVerdict([cluster("low"), cluster("high")])).toBe("Significant issues");
    expect(overallVerdict([cluster("medium")])).toBe("Minor issues");
    expect(overallVerdict([])).toBe("No material issues found");
  });
});
