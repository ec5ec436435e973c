import type { Finding } from "../../../src/consensus/finding.js";
import type { Confidence, Severity } from "../../../src/findings/schema.js";

/** A finding with the cluster a careful human put it in (ids are local to the scenario). */
export interface LabelledFinding extends Finding {
  cluster: string;
}

/** What a scenario tests, for the per-category figures. */
export type CorpusCategory =
  /** One defect in many words, across models and lenses: must merge (recall). */
  | "paraphrase"
  /** Different defects a few lines apart in one function: must not merge (precision). */
  | "adjacent-distinct"
  /** Different defects described with the same identifiers and words: must not merge. */
  | "same-vocabulary"
  /** Identical or generic titles in other files or far apart. */
  | "placement";

export interface CorpusScenario {
  name: string;
  /** What the scenario exercises. */
  description: string;
  modelOrder: string[];
  findings: LabelledFinding[];
}

export const OPUS = "claude-code/opus";
export const SONNET = "claude-code/sonnet";
export const KIMI = "kimi-k2.6:cloud";
export const GLM = "glm-5.2:cloud";
export const GPT = "openai/gpt-5.1";
export const ALL_MODELS = [OPUS, KIMI, SONNET, GLM, GPT];

/** Terse constructor so a scenario reads as a table. */
export function labelled(
  cluster: string,
  model: string,
  lens: string,
  file: string,
  lines: number | readonly [number, number],
  severity: Severity,
  confidence: Confidence,
  title: string,
  body: string,
): LabelledFinding {
  const [line, endLine] = typeof lines === "number" ? [lines, lines] : lines;
  return { cluster, model, lens, file, line, endLine, severity, confidence, title, body };
}
