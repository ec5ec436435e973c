import {
  agreementOf,
  applyDismissals,
  type Cluster,
  type Consensus,
  type RepositoryDismissal,
} from "../consensus/index.js";
import type { StoredFeedback, StoredRound } from "../run/store/index.js";
import type { GadflyMetrics } from "../server/index.js";
import type { GitHubClient } from "./github-client.js";
import { pollReactions } from "./poll-reactions.js";
import type { RoundDependencies } from "./round-dependencies.js";

export interface FeedbackScope {
  round: StoredRound;
  /** The repository opted in to `learn: repo`. */
  learn: boolean;
}

/**
 * What people said, applied to the round about to publish: the reactions on our inline comments
 * read (there is no webhook for them), the PR's dismissed findings marked (never inline again,
 * "dismissed by @user" in the consensus), and with `learn: repo` the findings like those
 * dismissed in the repository's other PRs held back and counted. The round's findings are then
 * counted in `gadfly_findings_total`.
 */
export async function applyFeedback(
  octokit: GitHubClient,
  consensus: Consensus,
  scope: FeedbackScope,
  deps: Pick<RoundDependencies, "store" | "botLogin" | "log" | "metrics" | "permissions">,
): Promise<Consensus> {
  const { round } = scope;
  await pollReactions(
    octokit,
    { installationId: round.installationId, repo: round.repo, pullNumber: round.pullNumber },
    deps,
    deps.permissions,
  );
  const here = dismissedHere(await deps.store.feedback(round.repo, round.pullNumber));
  const elsewhere: RepositoryDismissal[] = scope.learn
    ? (await deps.store.repoDismissals(round.repo)).flatMap((dismissal) =>
        dismissal.pullNumber === round.pullNumber ||
        dismissal.title === null ||
        dismissal.file === null ||
        dismissal.line === null
          ? []
          : [
              {
                pullNumber: dismissal.pullNumber,
                actor: dismissal.actor,
                kind: dismissal.kind,
                title: dismissal.title,
                file: dismissal.file,
                line: dismissal.line,
                endLine: dismissal.endLine ?? dismissal.line,
                ...(dismissal.context === null ? {} : { context: dismissal.context }),
              },
            ],
      )
    : [];
  const applied = applyDismissals(consensus, { here, elsewhere });
  countFindingOutcomes(applied, deps.metrics);
  return applied;
}

/** Each finding whose latest dismiss / false-positive / undismiss is not an undismiss. */
function dismissedHere(
  feedback: readonly StoredFeedback[],
): Map<string, NonNullable<Cluster["dismissed"]>> {
  const latest = new Map<string, StoredFeedback>();
  for (const entry of [...feedback].sort((left, right) => left.id - right.id)) {
    if (entry.kind === "dismiss" || entry.kind === "false_positive" || entry.kind === "undismiss") {
      latest.set(entry.fingerprint, entry);
    }
  }
  const dismissed = new Map<string, NonNullable<Cluster["dismissed"]>>();
  for (const [fingerprint, entry] of latest) {
    if (entry.kind === "dismiss" || entry.kind === "false_positive") {
      dismissed.set(fingerprint, { by: entry.actor, kind: entry.kind });
    }
  }
  return dismissed;
}

/**
 * The round's findings by the models that reported them: new ones as reported (a finding
 * still open is counted once, when it was new), agreed, confirmed or refuted on
 * cross-examination; an earlier round's findings now fixed, as fixed.
 */
function countFindingOutcomes(
  consensus: Consensus,
  metrics: Partial<GadflyMetrics> | undefined,
): void {
  const count = metrics?.finding;
  if (count === undefined) return;
  const fresh = consensus.comparison?.fresh ?? consensus.clusters;
  for (const cluster of fresh) {
    for (const model of cluster.models) {
      count(model, "reported");
      if (agreementOf(cluster) >= 2) count(model, "agreed");
      if ((cluster.confirmedBy ?? []).length > 0) count(model, "confirmed");
      if (cluster.disputed === true) count(model, "refuted");
    }
  }
  for (const finding of consensus.comparison?.fixed ?? []) {
    for (const model of finding.detail?.models ?? []) count(model, "fixed");
  }
}
