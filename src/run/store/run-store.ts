import type { LensReport } from "../../agent/index.js";
import type { PreviousFinding } from "../../consensus/index.js";
import type { Message } from "../../llm/index.js";
import type { ChallengeRecord } from "../cross-examine.js";
import type { RoundLeaseRef, RoundState } from "../round-machine.js";
import type { ModelSpend } from "./installation-spend.js";
import type { ScoreboardRows } from "./scoreboard-rows.js";
import type {
  StaleThreadAnswer,
  ThreadAnswerClaim,
  ThreadAnswerClaimOutcome,
  ThreadAnswerResult,
} from "./thread-answer-sql.js";

export type {
  StaleThreadAnswer,
  ThreadAnswerClaim,
  ThreadAnswerClaimOutcome,
  ThreadAnswerResult,
} from "./thread-answer-sql.js";

/** A repository (the one a round is about), as GitHub's payloads spell it; compared exactly. */
export interface RepoRef {
  owner: string;
  repo: string;
}

export type TriggerKind = "push" | "comment" | "rerequest";

export interface RoundTrigger {
  kind: TriggerKind;
  /** The webhook delivery that started the round. */
  deliveryId: string;
  /**
   * Login of who asked (comment, re-request). On a push: the pull request's author when they
   * cannot write to the repository, whose rounds reader limits count (readers.ts in
   * src/github); absent for a writer's push.
   */
  actor?: string;
  /** `@gadfly review full`: review the whole PR even when an incremental round could run. */
  full?: boolean;
}

export type { RoundLeaseRef, RoundState } from "../round-machine.js";

/** GitHub ids of what the round published; absent until set. */
export interface RoundArtifacts {
  statusCommentId?: number;
  consensusCommentId?: number;
  reviewId?: number;
  checkRunId?: number;
}

/** One review round of one pull request at one head SHA. */
export interface StoredRound {
  id: string;
  repo: RepoRef;
  installationId: number;
  pullNumber: number;
  headSha: string;
  /** 1, 2, 3… over the pull request's history (every SHA, every outcome). */
  number: number;
  trigger: RoundTrigger;
  state: RoundState;
  /**
   * Attempts the round spent: crashes of whoever held it (its lease ran out) and starts that
   * failed. A shutdown hands the round back without spending one (round-machine.ts).
   */
  attempts: number;
  /** Claims so far (each starts a new lease); `hasRun` says whether it ran before. */
  leaseEpoch: number;
  /** Claims handed back by `hold` before the round ran (a reader limit applied again). */
  holds: number;
  /** When a worker last claimed it (null: never, or before migration 16). */
  claimedAt: Date | null;
  /** A queued round is not claimed before this (a push's quiet period, a retry's backoff). */
  notBefore: Date | null;
  /** The newer head SHA that cancelled this round. */
  supersededBy: string | null;
  /** Why the round failed or was cancelled, safe to publish. */
  failure: string | null;
  artifacts: RoundArtifacts;
  createdAt: Date;
  updatedAt: Date;
  finishedAt: Date | null;
}

export interface StartRoundInput {
  repo: RepoRef;
  installationId: number;
  pullNumber: number;
  /**
   * The pull request's current head SHA as GitHub reports it, read under the pull request's
   * lock (`lockPullRequest`): every live round of the PR at another SHA is older, and superseded.
   */
  headSha: string;
  trigger: RoundTrigger;
  /**
   * Not claimed before this many ms from now (a push's quiet period). Joining a round that waits
   * longer brings its start forward, never back.
   */
  delayMs?: number;
}

/**
 * Rounds created since `since` in one installation: one pull request's, or every round a
 * reader's pushes started for `pushActor` (a push round's `trigger.actor`), in any repository.
 */
/** Rounds asked for (created) or claimed since `since`. */
export type RecentRoundsQuery = { installationId: number; since: Date } & (
  | { repo: RepoRef; pullNumber: number }
  | { pushActor: string }
);

export interface StartRoundResult {
  /** The new round (queued), or the round already queued/running for this (PR, SHA). */
  round: StoredRound;
  /** False when the trigger joined a round already queued or running. */
  created: boolean;
  /** Rounds of the same PR at other SHAs, now cancelled: abort their in-flight work. */
  superseded: StoredRound[];
}

export type RoundEnding =
  | { state: "completed" }
  | { state: "failed"; failure: string }
  | { state: "cancelled"; failure?: string; supersededBy?: string };

/** Who claims a round, and for how long its lease holds without being renewed. */
export interface ClaimRequest {
  owner: string;
  leaseMs: number;
}

/** What a claim found: the round is this worker's now (with its lease), or why not. */
export type ClaimOutcome =
  | {
      kind: "claimed";
      round: StoredRound;
      lease: RoundLeaseRef;
      /** Taken over from a holder whose lease ran out: that crash spent an attempt. */
      tookOver: boolean;
    }
  /** Queued, not yet due: wake it again in `dueInMs`. */
  | { kind: "not-due"; round: StoredRound; dueInMs: number }
  /** Running under another worker's live lease. */
  | { kind: "held"; round: StoredRound }
  | { kind: "ended"; round: StoredRound }
  | { kind: "missing" };

/**
 * The answer to a fenced transition: `ok` when the holder's lease was still the round's and the
 * round in a state the transition leaves; otherwise the round as it is now (null if deleted),
 * so the holder learns why (ended elsewhere, superseded, or taken over: its lease is gone).
 */
export interface LeaseOutcome {
  ok: boolean;
  round: StoredRound | null;
}

/** A live round and how soon someone should look at it: what the sweeper wakes. */
export interface DueRound {
  roundId: string;
  installationId: number;
  state: "queued" | "running";
  /** 0 when due now (queued and due, or running with its lease run out); else ms until then. */
  dueInMs: number;
}

export interface PreviousRound {
  roundId: string;
  round: number;
  headSha: string;
  /** What it published: its board and consensus comment are the PR's, edited by the next. */
  artifacts: RoundArtifacts;
  /** In the order they were saved. */
  findings: PreviousFinding[];
  /**
   * The lenses it ran that no model finished (every report of the lens skipped, failed or
   * cancelled), in name order. What they were to review is unreviewed at its head, so a round
   * with any is no baseline for the next step: the next round reviews the whole pull request.
   */
  unfinishedLenses: string[];
  /** What it reviewed against (`saveReviewBase`); null when it was not recorded. */
  base: ReviewBase | null;
}

/** The base a round reviewed the PR's diff against: the base branch and its merge base. */
export interface ReviewBase {
  ref: string;
  mergeBaseSha: string;
}

export interface PostedInline {
  fingerprint: string;
  commentId: number;
  postedAt: Date;
  /** Our "Fixed in …" reply under the comment, once the finding was fixed; absent until then. */
  fixedReplyId?: number;
}

/**
 * What a person said about one finding: a reaction on its comment, a `@gadfly dismiss` /
 * `false-positive` / `undismiss` reply on its thread, or its thread resolved without a fix.
 * "Fixed in a later round" is not feedback: it is derived by comparing rounds' findings.
 */
export type FeedbackKind =
  | "thumbs_up"
  | "thumbs_down"
  | "dismiss"
  | "false_positive"
  | "undismiss"
  | "resolved_without_fix";

export const FEEDBACK_KINDS: readonly FeedbackKind[] = [
  "thumbs_up",
  "thumbs_down",
  "dismiss",
  "false_positive",
  "undismiss",
  "resolved_without_fix",
];

export interface FeedbackInput {
  repo: RepoRef;
  pullNumber: number;
  fingerprint: string;
  kind: FeedbackKind;
  /** Login of who gave it (only people with write access are recorded). */
  actor: string;
  /** A dismissal's free text, as written (untrusted). */
  reason?: string | null;
  /** The round the finding was in, when known. */
  roundId?: string | null;
}

export interface StoredFeedback extends Required<FeedbackInput> {
  id: number;
  createdAt: Date;
}

/**
 * A finding of the repository whose last dismiss / false-positive / undismiss was not an
 * undismiss, with the title and file its PR last published (for `learn: repo` matching).
 */
export interface RepoDismissal {
  pullNumber: number;
  fingerprint: string;
  kind: "dismiss" | "false_positive";
  actor: string;
  reason: string | null;
  createdAt: Date;
  /** Null when no round of the PR saved the finding (e.g. the rounds were pruned). */
  title: string | null;
  file: string | null;
  line: number | null;
  /** From the saved detail; null on findings saved without one. */
  endLine: number | null;
  /** The normalized code at its lines when it was published (codeContext); null when unknown. */
  context: string | null;
}

/**
 * Durable state of review rounds. Async throughout so a networked database
 * can implement it; every method that checks and then writes does so
 * atomically, with the uniqueness rules enforced by the database itself.
 */
export interface RunStore {
  /** "new" exactly once per delivery id, however many callers race. */
  recordDelivery(id: string, event: string, receivedAt: Date): Promise<"new" | "duplicate">;
  /**
   * Forgets a recorded delivery, so its redelivery is "new" again: for a
   * delivery whose handling failed. A no-op for an id not recorded.
   */
  forgetDelivery(id: string): Promise<void>;

  /**
   * Runs `work` holding the pull request's trigger lock, which receivers in every process share:
   * a trigger reads the PR's current head from GitHub and starts its round under it, so a late
   * delivery for an older head cannot start a round after a newer one did.
   */
  lockPullRequest<T>(repo: RepoRef, pullNumber: number, work: () => Promise<T>): Promise<T>;
  /**
   * Runs `work` holding a reader's lock in the installation, shared by receivers in every
   * process: a push by a reader counts their rounds across pull requests and starts its round
   * under it, so two pushes to two of their PRs cannot both take their last round of the day.
   * Taken inside `lockPullRequest`, never around it (one order, no deadlock).
   */
  lockReader<T>(installationId: number, login: string, work: () => Promise<T>): Promise<T>;
  /**
   * Starts (or joins) the round of a (PR, head SHA) — the machine's `start`: at most one round per
   * (PR, SHA) is queued or running. In the same transaction, every queued or running round of the
   * PR at another SHA is cancelled with `supersededBy` (`supersede`), and a joined round waiting
   * longer than `delayMs` is brought forward (`bring-forward`).
   */
  startRound(input: StartRoundInput): Promise<StartRoundResult>;
  findRound(roundId: string): Promise<StoredRound | null>;
  /** The rounds the query names, oldest first: what reader limits and the quiet period read. */
  recentRounds(query: RecentRoundsQuery): Promise<StoredRound[]>;
  /**
   * `claim` (queued and due) or `take-over` (running, its lease run out: spends an attempt):
   * the round is this worker's until its lease runs out, its epoch the fence of every later
   * transition it takes.
   */
  claimRound(roundId: string, request: ClaimRequest): Promise<ClaimOutcome>;
  /** `renew`: the lease holds `leaseMs` more from now. */
  renewLease(lease: RoundLeaseRef, leaseMs: number): Promise<LeaseOutcome>;
  /** `release`: a stopping worker hands the round back, due at once, no attempt spent. */
  releaseRound(lease: RoundLeaseRef): Promise<LeaseOutcome>;
  /** `retry`: the round could not start; it is due again in `delayMs` and spends an attempt. */
  retryRound(lease: RoundLeaseRef, delayMs: number): Promise<LeaseOutcome>;
  /**
   * `hold`: a reader's round claimed while a reader limit applies again waits `delayMs` more,
   * no attempt spent, and counts as a round that has not run (`hasRun`).
   */
  holdRound(lease: RoundLeaseRef, delayMs: number): Promise<LeaseOutcome>;
  /** `complete`, `fail` or `cancel`, by the ending's state: the first ending wins. */
  finishRound(lease: RoundLeaseRef, ending: RoundEnding): Promise<LeaseOutcome>;
  /** Every live round with when it is due: the sweeper wakes them (queued or lease run out). */
  dueRounds(): Promise<DueRound[]>;
  /**
   * Ends every lease not held by `owner` at once: for the single-process store, whose only
   * process is `owner`, so any other holder died with the last process. Returns how many.
   */
  expireLeases(owner: string): Promise<number>;
  /** Sets the given artifact ids; those not given keep their value. */
  setArtifacts(roundId: string, artifacts: RoundArtifacts): Promise<void>;

  /** False when the lens already ended in this round: it must not be called again. */
  markLensRunning(roundId: string, model: string, lens: string): Promise<boolean>;
  /**
   * Records how a lens ended (its outcome, report and token usage); a later
   * save replaces an earlier one. Save only lenses that really ended: a lens
   * interrupted by shutdown is left running so it resumes.
   */
  saveLensReport(roundId: string, report: LensReport): Promise<void>;
  /** Reports saved for the round, ordered by model then lens. */
  lensReports(roundId: string): Promise<LensReport[]>;
  /** Kept apart from reports so retention can prune them. */
  saveTranscript(roundId: string, model: string, lens: string, messages: Message[]): Promise<void>;
  transcript(roundId: string, model: string, lens: string): Promise<Message[] | null>;

  /** Records what the round reviews against (its PR's diff is merge base to head). */
  saveReviewBase(roundId: string, base: ReviewBase): Promise<void>;
  /** Replaces the findings published by the round. */
  saveFingerprints(roundId: string, findings: PreviousFinding[]): Promise<void>;
  /** The PR's last completed round numbered below `beforeRoundNumber`, or null. */
  previousRound(
    repo: RepoRef,
    pullNumber: number,
    beforeRoundNumber: number,
  ): Promise<PreviousRound | null>;
  /**
   * Remembers an inline comment posted for a finding; a later post of it replaces the id (and
   * forgets the fixed reply: the new comment has none).
   */
  savePostedInline(
    repo: RepoRef,
    pullNumber: number,
    fingerprint: string,
    commentId: number,
  ): Promise<void>;
  postedInline(repo: RepoRef, pullNumber: number): Promise<PostedInline[]>;
  /**
   * Records our "fixed" reply under the inline comment of a finding. False (nothing written)
   * when the finding's stored comment is no longer `commentId` (posted again since) or is unknown.
   */
  saveFixedReply(
    repo: RepoRef,
    pullNumber: number,
    fingerprint: string,
    commentId: number,
    replyId: number,
  ): Promise<boolean>;
  /** Remembers findings a review body listed as not placeable inline; listing one again keeps the first time. */
  saveListedUnplaced(
    repo: RepoRef,
    pullNumber: number,
    fingerprints: readonly string[],
  ): Promise<void>;
  /** Fingerprints of the PR's findings already listed in a review body as not placeable inline. */
  listedUnplaced(repo: RepoRef, pullNumber: number): Promise<string[]>;

  /**
   * Records one ended cross-examination challenge of the round (a vote, or failed/cancelled
   * with its reason); saving the same (fingerprint, model) again replaces it.
   */
  saveChallenge(roundId: string, record: ChallengeRecord): Promise<void>;
  /** The round's ended challenges, in the order they were saved: a resumed round does not ask again. */
  challenges(roundId: string): Promise<ChallengeRecord[]>;

  /**
   * What the installation's model work spent since `since`, per model: lens runs that ended
   * and challenges saved since then, in every repository, `exceptRound`'s own left out (a
   * running round counts its own). The daily budget caps read it as each lens starts.
   * `readersOnly`: only readers' rounds (a push round with `trigger.actor`), whose share of the
   * daily caps `readers.dailyShare` bounds.
   */
  installationSpend(
    installationId: number,
    since: Date,
    exceptRound?: string,
    options?: { readersOnly?: boolean },
  ): Promise<ModelSpend[]>;

  /**
   * Claims one `@gadfly` request in a finding's thread before any model is called: `duplicate`
   * when the reply was claimed before (a redelivery), `limit` when the PR already has
   * `perPullRequest` requests claimed since `since` (nothing is written then). Callers hold the
   * PR's lock (lockPullRequest) so two receivers cannot both take the last one.
   */
  claimThreadAnswer(
    claim: ThreadAnswerClaim,
    limit: { perPullRequest: number; since: Date },
  ): Promise<ThreadAnswerClaimOutcome>;
  /** Records how a claimed request ended; its usage counts in installationSpend from then on. */
  finishThreadAnswer(replyCommentId: number, result: ThreadAnswerResult): Promise<void>;
  /**
   * The claim holds `leaseMs` more from now; false when it is no longer unanswered (a sweep took
   * it as interrupted: its answerer stops and posts nothing).
   */
  renewThreadAnswer(replyCommentId: number, leaseMs: number): Promise<boolean>;
  /** Unanswered claims whose lease ran out (their answerer died), oldest first, at most `max`. */
  staleThreadAnswers(max: number): Promise<StaleThreadAnswer[]>;
  /**
   * Takes a stale claim as interrupted: true for the one caller that did (it says so in the
   * thread). An interrupted request is given back: it no longer counts against the PR's limit.
   */
  interruptThreadAnswer(replyCommentId: number): Promise<boolean>;

  /**
   * Records a publishing step of the round: `intent` just before its GitHub call, `done` once
   * its result is stored. An intent never downgrades a step already done.
   */
  markPublishStep(roundId: string, step: string, state: "intent" | "done"): Promise<void>;
  /** The round's publishing steps recorded so far, by step. */
  publishSteps(roundId: string): Promise<Record<string, "intent" | "done">>;

  /** Records one piece of feedback on a finding, stamped with the store's clock. */
  saveFeedback(entry: FeedbackInput): Promise<StoredFeedback>;
  /** The PR's feedback, oldest first. */
  feedback(repo: RepoRef, pullNumber: number): Promise<StoredFeedback[]>;
  /** Feedback given since `since` (all repositories, or one), oldest first: the scoreboard's input. */
  feedbackSince(since: Date, repo?: RepoRef): Promise<StoredFeedback[]>;
  /** The repository's findings dismissed and not undismissed since, oldest dismissal first. */
  repoDismissals(repo: RepoRef): Promise<RepoDismissal[]>;

  /**
   * The rounds created since `since` (all repositories, or one) with their lens runs, published
   * findings and challenges: the scoreboard's input, read in four queries whatever the window.
   */
  scoreboardRows(since: Date, repo?: RepoRef): Promise<ScoreboardRows>;

  /** Deletes transcripts saved before `olderThan`; returns how many. */
  pruneTranscripts(olderThan: Date): Promise<number>;
  /** Deletes delivery ids received before `olderThan`: a redelivery after that counts as new. */
  pruneDeliveries(olderThan: Date): Promise<number>;

  close(): Promise<void>;
}
