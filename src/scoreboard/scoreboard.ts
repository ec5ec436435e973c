/**
 * One row of the scoreboard: a model, or a lens (all models together), over the window.
 * Rates are null when nothing was there to divide by, never a made-up 0.
 */
export interface ScoreLine {
  /** The model id, or the lens id. */
  id: string;
  /** Lens runs that ended done or failed (cancelled and skipped ones are no one's failure). */
  lensRuns: number;
  failed: number;
  /** failed / lensRuns. */
  failureRate: number | null;
  /** Of the lens runs that ended done, in milliseconds. */
  medianDurationMs: number | null;
  /** Findings its lenses reported (after their verify pass), before clustering. */
  reported: number;
  /** Distinct published findings (one per pull request and fingerprint, whatever the rounds). */
  findings: number;
  /**
   * Of them, agreed as the published consensus counts it (agreementOf): two or more models in a
   * cluster the clusterer was sure of, or a confirmation; never a refuted one.
   */
  agreed: number;
  agreementRate: number | null;
  /** Of them, put to cross-examination by another model, and how that ended. */
  challenged: number;
  confirmed: number;
  refuted: number;
  /** Of them, gone from a later completed round of the pull request. */
  fixed: number;
  fixedRate: number | null;
  /** Of them, dismissed (or marked a false positive) and not undismissed since. */
  dismissed: number;
  dismissedRate: number | null;
  thumbsUp: number;
  thumbsDown: number;
  /** Of them, agreed, confirmed or fixed: the findings worth paying for. */
  useful: number;
  /** Every input token (cached included), of its lenses and of its challenges of others. */
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  /** US dollars; null when a model of the row has no price in the config. */
  costUsd: number | null;
  /** (input + output tokens) / useful. */
  tokensPerUseful: number | null;
  costPerUseful: number | null;
}

/** A recent round, for the list of the last rounds. */
export interface RecentRound {
  repository: string;
  pullNumber: number;
  round: number;
  state: string;
  headSha: string;
  createdAt: string;
  /** Findings it published. */
  findings: number;
  /** The title of its first-ranked finding (model text: untrusted), or null. */
  topFinding: string | null;
  costUsd: number | null;
}

/** Models and lenses scored over a window, for one repository or all. */
export interface Scoreboard {
  since: string;
  until: string;
  /** `owner/name`, or null for every repository. */
  repository: string | null;
  /** Every repository with a round in the window (the per-repository views). */
  repositories: string[];
  rounds: number;
  completedRounds: number;
  pullRequests: number;
  /** Distinct published findings. */
  findings: number;
  costUsd: number | null;
  /** By findings, most first, then by id. */
  models: ScoreLine[];
  lenses: ScoreLine[];
  /** Newest first, at most `RECENT_ROUNDS`. */
  recentRounds: RecentRound[];
}

/** How many of the last rounds the scoreboard lists. */
export const RECENT_ROUNDS = 20;
