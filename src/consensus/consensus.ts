import type { BudgetNote, RoundUsage } from "../accounting/index.js";
import type { LensReport } from "../agent/index.js";
import type { Confidence, Severity, Verdict } from "../findings/index.js";
import type { Cluster } from "./cluster.js";

/** One model's side of a round: all its lenses. */
export interface ModelSummary {
  model: string;
  provider: string;
  /** Null when every lens failed, was cancelled or was skipped: such a model does not count. */
  verdict: Verdict | null;
  /** In the order of the configured lenses. */
  lenses: LensReport[];
}

/** A cluster of an earlier round, as stored with that round. */
export interface PreviousFinding {
  fingerprint: string;
  title: string;
  file: string;
  line: number;
  severity: Severity;
  /** URL of the inline comment or anchor where it was shown, when known. */
  url?: string;
  /** What carrying it into a later round needs; absent on findings saved before that existed. */
  detail?: PreviousFindingDetail;
}

/** The rest of a published cluster, so a later round can show it still open without a model. */
export interface PreviousFindingDetail {
  endLine: number;
  /** The models that reported it, in config order. */
  models: string[];
  /** Models that confirmed it on cross-examination. */
  confirmedBy?: string[];
  /**
   * Its models were linked on weak evidence and cross-examination did not settle it
   * (`Cluster.unsure`): it counts as one model's finding, here and in the scoreboard.
   */
  unsure?: true;
  lens: string;
  confidence: Confidence;
  /** The representative's text, bounded when saved. */
  body: string;
  /** The round it was first reported in, when it has been carried since. */
  since?: number;
  /** The normalized code at its lines at the head it was published at (Cluster.context). */
  context?: string;
}

/**
 * An earlier round's finding an incremental round carries when nobody reports it again: where
 * its lines are at this head, and, when the push touched them, what the re-check said.
 */
export interface CarriedFinding {
  fingerprint: string;
  /** Its file at this head when the PR moved it (a rename); absent, where it was. */
  file?: string;
  line: number;
  endLine: number;
  /**
   * `confirmed`/`unsure`: what the re-check said; `not-rechecked`: a model that reported it
   * did not finish its lens this round, so nobody who could tell was asked.
   */
  recheck?: "confirmed" | "unsure" | "not-rechecked";
}

export interface RoundComparison {
  /** This round's number (2 or more when there is a comparison). */
  round: number;
  previousHeadSha: string;
  fresh: Cluster[];
  stillOpen: Cluster[];
  fixed: PreviousFinding[];
}

/** Everything the published artifacts are rendered from. */
export interface Consensus {
  /** In config order. */
  models: ModelSummary[];
  /** Models with at least one lens done: the N of "consensus across N models". */
  modelCount: number;
  verdict: Verdict;
  /** Ranked: models count, then severity, then file and line. */
  clusters: Cluster[];
  /** Null on a first round. */
  comparison: RoundComparison | null;
  /** What the round's model work cost, when the caller counted it (the footer says it). */
  usage?: RoundUsage;
  /** The budget's mark on the round (a cap reached, a downshift), when it left one. */
  budget?: BudgetNote;
  /**
   * Findings left out of every list and the inline review because they match a dismissal in
   * another pull request of the repository (`learn: repo`); the consensus says how many.
   */
  heldBackByDismissals?: number;
  /** Each finding held back (`heldBackByDismissals` of them), with the dismissal it matched. */
  heldBack?: HeldBackFinding[];
  /**
   * The changed files no model reviewed, and why (NotReviewedReason): named in the consensus
   * comment and the check's summary, and the check's title says `partial`.
   */
  notReviewed?: readonly { path: string; reason: string }[];
  /** The lockfile check's result, when the change touches a lockfile (checkLockfiles). */
  lockfiles?: LockfileCheck;
  /** One model's description of the change, or why there is none; absent when it is off. */
  summary?: ConsensusSummary;
}

/** The PR's summary as one model wrote it (its text is the model's), or why it is unavailable. */
export type ConsensusSummary =
  | {
      state: "written";
      model: string;
      lines: string[];
      groups: { label: string; files: string[] }[];
      /** Lines left out because they claimed a verdict. */
      verdictLinesDropped: number;
    }
  | { state: "unavailable"; model: string | null; reason: string };

/** A finding held back by a dismissal in another pull request (`learn: repo`), listed collapsed. */
export interface HeldBackFinding {
  fingerprint: string;
  title: string;
  file: string;
  line: number;
  severity: Severity;
  model: string;
  dismissal: {
    pullNumber: number;
    actor: string;
    kind: "dismiss" | "false_positive";
    title: string;
    file: string;
    line: number;
  };
}

/** What a lockfile's added lines do that a reader should see: a new host, an install script. */
export interface LockfileNote {
  path: string;
  /** The line at the head (0 when unknown). */
  line: number;
  kind: "host" | "install-script";
  /** The host, or the package whose install script is added. Untrusted: the author's text. */
  detail: string;
}

export interface LockfileCheck {
  checked: string[];
  /** Lockfiles whose lines the diff does not show (too large, no patch): not checked. */
  unchecked: string[];
  notes: LockfileNote[];
  notesOmitted: number;
}
