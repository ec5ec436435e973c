import type { Context } from "probot";
import { oncePerDelivery } from "./once-per-delivery.js";
import type { RoundDependencies } from "./run-pull-request-round.js";
import { type StartOutcome, startRound } from "./start-round.js";

/**
 * opened / synchronize / reopened / ready_for_review: a round with an
 * advisory check on the PR's current head (drafts and `onPush: off` skipped
 * per the repo's config).
 */
export const PULL_REQUEST_EVENTS = [
  "pull_request.opened",
  "pull_request.synchronize",
  "pull_request.reopened",
  "pull_request.ready_for_review",
] as const;

export async function handlePullRequest(
  context: Context<(typeof PULL_REQUEST_EVENTS)[number]>,
  deps: RoundDependencies,
): Promise<StartOutcome> {
  const { payload } = context;
  const installationId = payload.installation?.id;
  if (installationId === undefined)
    return { kind: "skipped", reason: "no installation in the payload" };
  if (payload.pull_request.state !== "open")
    return { kind: "skipped", reason: "pull request is not open" };
  return oncePerDelivery(context, deps, async () => {
    const repo = context.repo();
    // A late delivery must not supersede the round of a newer push: review the current head.
    const { data: pull } = await context.octokit.rest.pulls.get({
      ...repo,
      pull_number: payload.pull_request.number,
    });
    if (pull.state !== "open") return { kind: "skipped", reason: "pull request is not open" };
    if (pull.head.sha !== payload.pull_request.head.sha) {
      return {
        kind: "skipped",
        reason: `stale delivery for ${payload.pull_request.head.sha.slice(0, 7)}`,
      };
    }
    return startRound(
      context.octokit,
      {
        repo,
        installationId,
        pullNumber: pull.number,
        headSha: pull.head.sha,
        draft: pull.draft ?? false,
        trigger: { kind: "push", deliveryId: context.id },
      },
      deps,
    );
  });
}
