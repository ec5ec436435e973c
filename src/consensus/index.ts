// Front door of src/consensus: consensus across models: clustering findings, ranking, comparing rounds.
// Other folders import only from here; this lists what they use today.

export {
  agreementOf,
  applyChallenges,
  type ChallengeResult,
} from "./apply-challenges.js";
export { applyDismissals, type Dismissals, type RepositoryDismissal } from "./apply-dismissals.js";
export { buildConsensus } from "./build-consensus.js";
export { type Claim, claimsOf } from "./claims-of.js";
export type { Cluster } from "./cluster.js";
export type {
  CarriedFinding,
  Consensus,
  ConsensusSummary,
  HeldBackFinding,
  LockfileCheck,
  LockfileNote,
  ModelSummary,
  PreviousFinding,
  PreviousFindingDetail,
  RoundComparison,
} from "./consensus.js";
export { type DismissalSubject, matchesDismissal } from "./match-dismissal.js";
export { type InlinePolicy, type InlineSelection, selectInline } from "./select-inline.js";
