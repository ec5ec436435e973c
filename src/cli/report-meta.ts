import type { LensMetadata } from "../render/index.js";
import type { NotReviewed } from "../run/index.js";
import type { SuggestionOutcome } from "../suggestions/index.js";
import type { LensErrorLog } from "./lens-error-log.js";
import type { UsageReportOptions } from "./usage-report.js";

/** What the machine-readable reports need besides the consensus itself. */
export interface ReportMeta {
  /** The package version. */
  toolVersion: string;
  /** The head reviewed (a commit SHA, or the working-tree marker). */
  headSha: string;
  /** The commit the diff starts from; null when unknown. */
  baseSha: string | null;
  /** Files left out of the review, and why. */
  notReviewed: readonly NotReviewed[];
  /** Title and emoji of every lens, from the loaded lens definitions (else derived from the id). */
  lenses?: Readonly<Record<string, LensMetadata>>;
  /** The repository's root directory: SARIF's %SRCROOT% when given. */
  sourceRoot?: string;
  /** The error behind each failed lens (an agent CLI's stderr tail): the JSON `error`. */
  lensErrors?: LensErrorLog;
  /** Each cluster's checked suggestion, by fingerprint (src/suggestions): what the reports show. */
  suggestions?: ReadonlyMap<string, SuggestionOutcome>;
  /** How the run's usage is reported (replayed or timed, which models are priced); default timed, none priced. */
  usage?: UsageReportOptions;
}
