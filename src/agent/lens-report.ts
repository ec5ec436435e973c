import type { LensFinding, Verdict } from "../findings/index.js";
import type { Usage } from "../llm/index.js";
import type { LensFailover } from "./lens-failover.js";

/**
 * `skipped`: the lens was never started because a rule kept this model from the
 * pull request (agent CLIs and fork PRs below the bubblewrap level). Neither
 * failed nor clean: it has no findings and no verdict, and it never counts as
 * a model's participation.
 */
export type LensOutcome = "done" | "failed" | "cancelled" | "skipped";

/** What one (model, lens) review produced: the unit the consensus is built from. */
export interface LensReport {
  /** Model id from the app config. */
  model: string;
  /** Provider name from the app config. */
  provider: string;
  lens: string;
  outcome: LensOutcome;
  /** Derived from the surviving findings; null unless `outcome` is "done". */
  verdict: Verdict | null;
  /** The VERDICT line as the model wrote it, undecorated; for display only. */
  statedVerdict: string | null;
  /** The published lens text: verification note, then the review (recovered by finalize). */
  text: string;
  /** Findings that survived (verify included). */
  findings: LensFinding[];
  /** Findings the verify pass dropped: counted and shown, never silently lost. */
  dropped: LensFinding[];
  /**
   * Valid findings beyond the per-lens limit (MAX_FINDINGS_PER_LENS), dropped
   * before verification: counted and shown. Absent in reports stored before the
   * limit existed, which read as 0.
   */
  overLimit?: number;
  /** Why the lens failed, was cancelled or was skipped, safe to publish (no stack, no key). */
  failure: string | null;
  /** Tool-loop turns used. */
  turns: number;
  /** Every call of the lens: review, repair and verify. */
  usage: Usage;
  /** Of `usage`, the verify pass's; absent without one (and in reports stored before the split). */
  verifyUsage?: Usage;
  /** The lens's wall time, verify included; absent in reports stored before it was measured. */
  durationMs?: number;
  /** Of `durationMs`, the verify pass's. */
  verifyDurationMs?: number;
  /** True when finalize replaced a degenerate terminal turn. */
  recovered: boolean;
  /**
   * The fallback model that answered, when the lens went on along `model`'s failover chain:
   * agreement counts this model, not `model`. Absent when `model` answered itself.
   */
  answeredBy?: string;
  /** The hops along the chain, in order; absent when there were none. */
  failovers?: LensFailover[];
}
