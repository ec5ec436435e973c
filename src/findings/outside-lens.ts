// "Outside my lens": the one severe problem a reviewer may report for another lens.
import type { LensFinding, Severity } from "./schema.js";

/*
 * The form is a field of a finding in the `gadfly-findings` block, `"lens": "<lens id>"`, not a
 * prose line such as `Outside my lens: [security] src/a.ts:12 high — title`, because:
 * - the block is what models already emit reliably, and an entry goes through the same strict
 *   normaliser as every finding (a file, a new-side line, a known severity, a title), the same
 *   duplicate check, the per-lens limit and the verification pass; a prose line would need its
 *   own grammar, loose enough for bullets, bold and dashes, and would carry no body;
 * - only the answer's last top-level `gadfly-findings` fence is read, so an entry quoted from
 *   the pull request (inside a ```diff fence, or in an earlier block) is never one; a prose line
 *   would have to be told apart from the same line quoted in the answer's prose.
 */

/**
 * The lenses an outside-lens finding may name: the built-in ones, which the output contract
 * lists (a reviewer is not told which custom lenses a repository runs).
 */
export const OUTSIDE_LENS_IDS: readonly string[] = [
  "security",
  "correctness",
  "maintainability",
  "performance",
  "error-handling",
];

/** Outside-lens findings one lens answer may contribute; the first written is kept. */
export const MAX_OUTSIDE_LENS_FINDINGS = 1;

/** "Severe": an outside-lens finding below this is ignored (a nit belongs to its own lens). */
const SEVERE: ReadonlySet<Severity> = new Set<Severity>(["high", "medium"]);

/** Who is answering, so that a finding naming another lens can be attributed to it. */
export interface LensContext {
  /** The id of the lens whose answer is parsed. */
  lens: string;
  /** Lens ids a finding may name; defaults to OUTSIDE_LENS_IDS. */
  lenses?: readonly string[];
}

export type OutsideLensDecision =
  | { kind: "own"; finding: LensFinding; note?: string }
  | { kind: "outside"; finding: LensFinding }
  | { kind: "ignored"; reason: string };

/**
 * What becomes of one finding whose entry named `named` as its lens, given how many
 * outside-lens findings the answer already has. An unknown lens, or the answering lens
 * itself, keeps the finding in the answering lens; another known lens takes it when it is
 * severe and the first of its kind, and it keeps its origin in `reportedBy`.
 */
export function decideOutsideLens(
  finding: LensFinding,
  named: string,
  context: LensContext,
  outsideSoFar: number,
): OutsideLensDecision {
  const lens = named.trim().toLowerCase();
  if (lens === context.lens) return { kind: "own", finding };
  if (!(context.lenses ?? OUTSIDE_LENS_IDS).includes(lens)) {
    return {
      kind: "own",
      finding,
      note: `unknown lens ${JSON.stringify(named.slice(0, 40))}: kept in the ${context.lens} lens`,
    };
  }
  if (!SEVERE.has(finding.severity)) {
    return {
      kind: "ignored",
      reason: `ignored: an "Outside my lens" finding (${lens}) must be high or medium, not ${finding.severity}`,
    };
  }
  if (outsideSoFar >= MAX_OUTSIDE_LENS_FINDINGS) {
    return {
      kind: "ignored",
      reason: `ignored: a second "Outside my lens" finding (${lens}); one per answer is read`,
    };
  }
  return { kind: "outside", finding: { ...finding, lens, reportedBy: context.lens } };
}
