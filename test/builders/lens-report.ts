import type { LensReport } from "../../src/agent/index.js";
import { deriveVerdict } from "../../src/findings/derive-verdict.js";

/**
 * A lens report with defaults: a done security review by one model with no findings.
 * Unless the test gives one, the verdict is the one the agent derives from the findings
 * (`deriveVerdict`) for a done lens, and null otherwise; the stated verdict is the
 * verdict unless given.
 */
export function lensReport(overrides: Partial<LensReport> = {}): LensReport {
  const outcome = overrides.outcome ?? "done";
  const findings = overrides.findings ?? [];
  const verdict = outcome === "done" ? deriveVerdict(findings) : null;
  return {
    model: "model-a",
    provider: "provider-a",
    lens: "security",
    outcome,
    verdict,
    statedVerdict: verdict,
    text: "",
    findings,
    dropped: [],
    failure: null,
    turns: 3,
    usage: { inputTokens: 10, outputTokens: 5 },
    recovered: false,
    ...overrides,
  };
}

/** The store tests' report: glm's finished security lens with one low finding. */
export function sampleLensReport(overrides: Partial<LensReport> = {}): LensReport {
  return lensReport({
    model: "glm-5.2:cloud",
    provider: "ollama-cloud",
    text: "VERDICT: Minor issues\n\nThe token is compared with `==`.",
    findings: [
      {
        file: "src/auth.ts",
        line: 12,
        endLine: 14,
        severity: "low",
        confidence: "medium",
        title: "Token compared without constant time",
        body: "Use `timingSafeEqual`.",
      },
    ],
    usage: { inputTokens: 1200, outputTokens: 340 },
    ...overrides,
  });
}
