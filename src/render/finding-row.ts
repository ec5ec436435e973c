import type { Cluster } from "../consensus/index.js";
import type { Severity } from "../findings/index.js";
import { SEVERITY_EMOJI } from "./format.js";

/** One cluster as the tables and lists show it; text is raw, templates escape it. */
export interface FindingRow {
  emoji: string;
  severity: Severity;
  title: string;
  file: string;
  line: number;
  endLine: number;
  /** `3/4`: models that flagged it out of the models that reviewed. */
  agreement: string;
  agreeing: number;
  /** The first (or only) model that flagged it. */
  model: string;
  models: string;
  /** Distinct lenses of its findings, the representative's first. */
  lenses: string;
  fingerprint: string;
  /** Where it was shown (an inline comment), when known. */
  url: string | null;
}

export function findingRow(
  cluster: Cluster,
  modelCount: number,
  urls: Readonly<Record<string, string>> = {},
): FindingRow {
  const representative = cluster.representative;
  const lenses = [...new Set([representative.lens, ...cluster.findings.map((f) => f.lens)])];
  return {
    emoji: SEVERITY_EMOJI[cluster.severity],
    severity: cluster.severity,
    title: representative.title,
    file: representative.file,
    line: representative.line,
    endLine: representative.endLine,
    agreement: `${cluster.models.length}/${modelCount}`,
    agreeing: cluster.models.length,
    model: cluster.models[0] ?? representative.model,
    models: cluster.models.join(", "),
    lenses: lenses.join(", "),
    fingerprint: cluster.fingerprint,
    url: Object.hasOwn(urls, cluster.fingerprint) ? (urls[cluster.fingerprint] ?? null) : null,
  };
}
