import type { Severity } from "../findings/index.js";
import type { ChallengeResult } from "./apply-challenges.js";
import type { Finding } from "./finding.js";

/** Findings that several (or one) models reported about the same problem at the same place. */
export interface Cluster {
  /** Stable across rounds: file + problem, not line numbers (see fingerprint.ts). */
  fingerprint: string;
  /** Every member finding, representative first, then in a deterministic order. */
  findings: Finding[];
  /**
   * Distinct models, in config order. Agreement is `models.length`, unless the cluster is
   * `unsure` (see agreementOf).
   */
  models: string[];
  /** Highest confidence, then highest severity, then config model order. */
  representative: Finding;
  /** The most common severity among members, ties to the lower. */
  severity: Severity;
  /**
   * Its models were linked on weak evidence (their findings resemble each other only faintly):
   * shown as one row, but it counts as one model's finding until cross-examination confirms
   * it, and it is cross-examined as a lone finding would be.
   */
  unsure?: true;
  /** Set once the cluster was cross-examined (apply-challenges.ts): each other model's answer. */
  challenges?: ChallengeResult[];
  /** Models that confirmed it on challenge: agreement beyond `models`. */
  confirmedBy?: string[];
  /** Refuted by a majority of the models that answered its challenge. */
  disputed?: boolean;
  /**
   * Set on a finding of an earlier round that an incremental round did not report again and
   * carried as still open: the push left its lines alone, or a re-check found it still there
   * (`recheck`: "confirmed"; "unsure" when the re-check could not tell).
   */
  carried?: { since: number; recheck?: "confirmed" | "unsure" | "not-rechecked" };
  /**
   * Dismissed on this pull request by a person with write access (`@gadfly dismiss` or
   * `@gadfly false-positive` on its thread, not undismissed since): never posted inline again,
   * shown in the consensus with who dismissed it.
   */
  dismissed?: { by: string; kind: "dismiss" | "false_positive" };
  /**
   * The normalized code at the representative's lines at this head, hashed (codeContext), when
   * the round read it: a repository-level dismissal matches a finding elsewhere by it.
   */
  context?: string;
}
