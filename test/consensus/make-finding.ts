import type { Finding } from "../../src/consensus/finding.js";

/** A finding with plausible defaults; tests override what they are about. */
export function makeFinding(overrides: Partial<Finding> = {}): Finding {
  const line = overrides.line ?? 10;
  return {
    file: "src/app.ts",
    line,
    endLine: overrides.endLine ?? line,
    severity: "medium",
    confidence: "medium",
    title: "Untitled finding",
    body: "",
    model: "model-a",
    lens: "correctness",
    ...overrides,
  };
}
