import type { Context } from "probot";
import { oncePerDelivery } from "./once-per-delivery.js";
import type { RoundDependencies } from "./round-dependencies.js";
import { type StartOutcome, startRound } from "./start-round.js";

/**
 * opened / synchronize / reopened / ready_for_review, and edited with a new base branch: a round
 * with an advisory check on the PR's current head (drafts and `onPush: off` skipped per the
 * repo's config). A new base changes what the PR does to it: that round reviews the whole PR,
 * since the last round reviewed against another base (readReviewScope). labeled / unlabeled: a
 * round only when the change lifts a label filter from a head never reviewed (`labelChange`).
 */
export const PULL_REQUEST_EVENTS = [
  "pull_request.opened",
  "pull_request.synchronize",
  "pull_request.reopened",
  "pull_request.ready_for_review",
  "pull_request.edited",
  "pull_request.labeled",
  "pull_request.unlabeled",
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
  if (payload.action === "edited" && payload.changes.base === undefined)
    return { kind: "skipped", reason: "edited without a new base branch" };
  return oncePerDelivery(context, deps, async () =>
    // The head is checked against the PR's current one under the PR's lock (startRound): a late
    // delivery for an older head must not supersede the round of a newer push.
    startRound(
      context.octokit,
      {
        repo: context.repo(),
        installationId,
        pullNumber: payload.pull_request.number,
        headSha: payload.pull_request.head.sha,
        trigger: { kind: "push", deliveryId: context.id },
        ...(payload.action === "labeled" || payload.action === "unlabeled"
          ? { labelChange: true }
          : {}),
      },
      deps,
    ),
  );
}
