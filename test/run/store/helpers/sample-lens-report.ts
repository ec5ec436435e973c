import type { LensReport } from "../../../../src/agent/lens-report.js";

/** A finished lens report with one finding; override what the test is about. */
export function sampleLensReport(overrides: Partial<LensReport> = {}): LensReport {
  return {
    model: "glm-5.2:cloud",
    provider: "ollama-cloud",
    lens: "security",
    outcome: "done",
    verdict: "Minor issues",
    statedVerdict: "Minor issues",
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
    dropped: [],
    failure: null,
    turns: 3,
    usage: { inputTokens: 1200, outputTokens: 340 },
    recovered: false,
    ...overrides,
  };
}
