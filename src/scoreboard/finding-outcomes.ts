import type { ScoreboardRows } from "../run/store/index.js";
import type { ScoreboardFeedback } from "./scoreboard-feedback.js";

/** What became of one published finding (a pull request's fingerprint) across its rounds. */
export interface FindingOutcome {
  /** `owner/name#pull:fingerprint`. */
  key: string;
  /** Every model that reported it in some round (from the stored detail; empty without it). */
  models: string[];
  /** The lens of its representative when last published; null without a stored detail. */
  lens: string | null;
  agreed: boolean;
  challenged: boolean;
  confirmed: boolean;
  refuted: boolean;
  fixed: boolean;
  dismissed: boolean;
  thumbsUp: number;
  thumbsDown: number;
}

/** Re-checks of a carried finding are stored with the challenges under this prefix. */
const RECHECK_PREFIX = "recheck:";
const DISMISSING = new Set(["dismiss", "false_positive", "undismiss"]);

export function findingKey(repository: string, pullNumber: number, fingerprint: string): string {
  return `${repository}#${pullNumber}:${fingerprint}`;
}

/**
 * Folds the window's rounds into one outcome per finding. Agreed, as the published consensus
 * counts agreement (agreementOf): two or more models reported it in a cluster the clusterer was
 * sure of (an `unsure` one counts one model), or another model confirmed it; not when refuted.
 * Confirmed: a challenger said so; refuted: a majority of the challengers that answered
 * said it is wrong (unsure counts neither way), each challenger's last answer counting, as the
 * consensus counts them. Fixed: a completed round of the pull request, later than the last
 * round that published it, no longer has it (the rounds' comparison called it fixed).
 * Dismissed: its last dismiss / false-positive / undismiss was not an undismiss.
 */
export function findingOutcomes(
  rows: ScoreboardRows,
  feedback: readonly ScoreboardFeedback[],
): FindingOutcome[] {
  const rounds = new Map(rows.rounds.map((round) => [round.id, round]));
  const lastCompleted = new Map<string, number>();
  for (const round of rows.rounds) {
    if (round.state !== "completed") continue;
    const pull = `${round.repo.owner}/${round.repo.repo}#${round.pullNumber}`;
    lastCompleted.set(pull, Math.max(lastCompleted.get(pull) ?? 0, round.number));
  }
  const outcomes = new Map<
    string,
    FindingOutcome & { lastRound: number; pull: string; reportedTogether: boolean }
  >();
  for (const { roundId, finding } of rows.findings) {
    const round = rounds.get(roundId);
    if (round === undefined) continue;
    const repository = `${round.repo.owner}/${round.repo.repo}`;
    const key = findingKey(repository, round.pullNumber, finding.fingerprint);
    const outcome = outcomes.get(key) ?? {
      ...emptyOutcome(key),
      lastRound: 0,
      pull: `${repository}#${round.pullNumber}`,
      reportedTogether: false,
    };
    // Two models in one cluster are agreement only when the clusterer was sure of the merge
    // (an unsure cluster nobody confirmed counts one model, as agreementOf counts it).
    const models = finding.detail?.models ?? [];
    if (models.length >= 2 && finding.detail?.unsure !== true) outcome.reportedTogether = true;
    for (const model of finding.detail?.models ?? []) {
      if (!outcome.models.includes(model)) outcome.models.push(model);
    }
    if (round.number >= outcome.lastRound) {
      outcome.lastRound = round.number;
      outcome.lens = finding.detail?.lens ?? outcome.lens;
    }
    outcomes.set(key, outcome);
  }
  const votes = challengeVotes(rows, rounds);
  for (const outcome of outcomes.values()) {
    outcome.fixed = (lastCompleted.get(outcome.pull) ?? 0) > outcome.lastRound;
    // A reporting model's vote is not a challenge (the consensus ignores it too).
    const answers = [...(votes.get(outcome.key) ?? new Map()).entries()]
      .filter(([model]) => !outcome.models.includes(model))
      .map(([, verdict]) => verdict);
    outcome.challenged = answers.length > 0;
    outcome.confirmed = answers.includes("confirm");
    outcome.refuted = answers.filter((verdict) => verdict === "refute").length * 2 > answers.length;
    // As the published consensus counts it: two models in a sure cluster, or a confirmation,
    // and never a refuted finding (a disputed cluster is not among the agreed).
    outcome.agreed = (outcome.reportedTogether || outcome.confirmed) && !outcome.refuted;
  }
  applyFeedback(outcomes, feedback);
  return [...outcomes.values()].map(
    ({ lastRound: _lastRound, pull: _pull, reportedTogether: _together, ...outcome }) => outcome,
  );
}

function emptyOutcome(key: string): FindingOutcome {
  return {
    key,
    models: [],
    lens: null,
    agreed: false,
    challenged: false,
    confirmed: false,
    refuted: false,
    fixed: false,
    dismissed: false,
    thumbsUp: 0,
    thumbsDown: 0,
  };
}

/** Each finding's challengers and their last answered verdict, rounds in order. */
function challengeVotes(
  rows: ScoreboardRows,
  rounds: ReadonlyMap<string, ScoreboardRows["rounds"][number]>,
): Map<string, Map<string, string>> {
  const votes = new Map<string, Map<string, string>>();
  const ordered = rows.challenges
    .map((challenge, index) => ({ challenge, index, round: rounds.get(challenge.roundId) }))
    .sort((a, b) => (a.round?.createdAt ?? 0) - (b.round?.createdAt ?? 0) || a.index - b.index);
  for (const { challenge, round } of ordered) {
    if (round === undefined || challenge.fingerprint.startsWith(RECHECK_PREFIX)) continue;
    if (challenge.outcome !== "answered" || challenge.verdict === null) continue;
    const key = findingKey(
      `${round.repo.owner}/${round.repo.repo}`,
      round.pullNumber,
      challenge.fingerprint,
    );
    const byModel = votes.get(key) ?? new Map<string, string>();
    byModel.set(challenge.model, challenge.verdict);
    votes.set(key, byModel);
  }
  return votes;
}

/** Reactions count once per person and kind; the last dismissal-kind entry decides. */
function applyFeedback(
  outcomes: ReadonlyMap<string, FindingOutcome>,
  feedback: readonly ScoreboardFeedback[],
): void {
  const seen = new Set<string>();
  const lastDismissal = new Map<string, string>();
  const ordered = [...feedback].sort(
    (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id,
  );
  for (const entry of ordered) {
    const key = findingKey(
      `${entry.repo.owner}/${entry.repo.repo}`,
      entry.pullNumber,
      entry.fingerprint,
    );
    const outcome = outcomes.get(key);
    if (outcome === undefined) continue;
    if (DISMISSING.has(entry.kind)) lastDismissal.set(key, entry.kind);
    const reaction = `${key}\n${entry.actor}\n${entry.kind}`;
    if (seen.has(reaction)) continue;
    seen.add(reaction);
    if (entry.kind === "thumbs_up") outcome.thumbsUp += 1;
    if (entry.kind === "thumbs_down") outcome.thumbsDown += 1;
  }
  for (const [key, kind] of lastDismissal) {
    const outcome = outcomes.get(key);
    if (outcome !== undefined) outcome.dismissed = kind !== "undismiss";
  }
}
