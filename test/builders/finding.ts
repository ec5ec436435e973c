import type { Finding } from "../../src/consensus/finding.js";
import type { LensFinding } from "../../src/findings/index.js";

/** A finding as a lens reports it, with defaults; override what the test is about. */
export function lensFinding(overrides: Partial<LensFinding> = {}): LensFinding {
  return {
    file: "src/a.ts",
    line: 1,
    endLine: 1,
    severity: "low",
    confidence: "medium",
    title: "A finding",
    body: "Why it matters.",
    ...overrides,
  };
}

/**
 * A finding as the consensus sees it (attributed to a model and a lens), with defaults;
 * `endLine` follows `line` unless given.
 */
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

/** The lens finding inside an attributed one. */
export function withoutAttribution({ model: _model, lens: _lens, ...rest }: Finding): LensFinding {
  return rest;
}
