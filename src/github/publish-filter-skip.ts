import type { FilterDecision } from "../config/index.js";
import { MARKERS, renderFilterSkip } from "../render/index.js";
import { findOwnComment } from "./find-own-comment.js";
import type { GitHubClient, RepoRef } from "./github-client.js";
import { CHECK_RUN_NAME } from "./publish-check-run.js";
import { retrySecondaryRateLimit } from "./retry-secondary-rate-limit.js";
import type { RoundDependencies } from "./round-dependencies.js";
import { upsertStickyComment } from "./upsert-sticky-comment.js";

export interface FilteredPush {
  repo: RepoRef;
  pullNumber: number;
  headSha: string;
  /** The repository's trigger phrase: the override the texts name. */
  trigger: string;
}

/**
 * A push the repository's filters skip is never silent: its head gets a completed, neutral
 * `Gadfly` check titled "Skipped: <reason>" (re-running it, as `@gadfly review` does, reviews
 * anyway), and an oversized pull request one sticky comment asking to split it. A GitHub
 * error is thrown: the delivery is answered 500 and redelivered.
 */
export async function publishFilterSkip(
  octokit: GitHubClient,
  push: FilteredPush,
  decision: Exclude<FilterDecision, { kind: "review" }>,
  deps: Pick<RoundDependencies, "botLogin" | "clock">,
): Promise<void> {
  const output = renderFilterSkip({
    reason: decision.reason,
    split: decision.kind === "split",
    trigger: push.trigger,
    headSha: push.headSha,
  });
  if (output.comment !== null) {
    const existing = await findOwnComment(
      octokit,
      push.repo,
      push.pullNumber,
      MARKERS.splitRequest,
      deps.botLogin,
    );
    if (existing?.body !== output.comment) {
      await upsertStickyComment(
        octokit,
        {
          repo: push.repo,
          issueNumber: push.pullNumber,
          marker: MARKERS.splitRequest,
          botLogin: deps.botLogin,
          ...(existing === null ? {} : { knownId: existing.id }),
        },
        output.comment,
      );
    }
  }
  const now = new Date(deps.clock.now()).toISOString();
  await retrySecondaryRateLimit(
    () =>
      octokit.rest.checks.create({
        ...push.repo,
        name: CHECK_RUN_NAME,
        head_sha: push.headSha,
        status: "completed",
        conclusion: "neutral",
        started_at: now,
        completed_at: now,
        output: { title: output.title, summary: output.summary },
      }),
    { clock: deps.clock },
  );
}
