import type { Context } from "probot";
import { oncePerDelivery } from "./once-per-delivery.js";
import { CHECK_RUN_NAME } from "./publish-check-run.js";
import type { RoundDependencies } from "./run-pull-request-round.js";
import { type StartOutcome, startRound } from "./start-round.js";

/** "Re-run" on our check: a new round for that SHA, if it is still the PR's head. */
export async function handleCheckRunRerequested(
  context: Context<"check_run.rerequested">,
  deps: RoundDependencies & { appId: number },
): Promise<StartOutcome> {
  const { payload } = context;
  const installationId = payload.installation?.id;
  if (installationId === undefined)
    return { kind: "skipped", reason: "no installation in the payload" };
  const check = payload.check_run;
  if (check.app?.id !== deps.appId || check.name !== CHECK_RUN_NAME) {
    return { kind: "skipped", reason: "not our check" };
  }
  return oncePerDelivery(context, deps, async () => {
    const repo = context.repo();
    let pullNumber = check.pull_requests[0]?.number;
    if (pullNumber === undefined) {
      // Fork PRs are not listed on the check run: ask which PRs hold the commit.
      const { data } = await context.octokit.rest.repos.listPullRequestsAssociatedWithCommit({
        ...repo,
        commit_sha: check.head_sha,
      });
      pullNumber = data.find((pull) => pull.state === "open")?.number;
    }
    if (pullNumber === undefined)
      return { kind: "skipped", reason: "no open pull request for this check" };
    const { data: pull } = await context.octokit.rest.pulls.get({
      ...repo,
      pull_number: pullNumber,
    });
    if (pull.head.sha !== check.head_sha) {
      return {
        kind: "skipped",
        reason: `check is for ${check.head_sha.slice(0, 7)}, the PR is now at ${pull.head.sha.slice(0, 7)}`,
      };
    }
    return startRound(
      context.octokit,
      {
        repo,
        installationId,
        pullNumber,
        headSha: pull.head.sha,
        draft: pull.draft ?? false,
        trigger: { kind: "rerequest", deliveryId: context.id, actor: payload.sender.login },
      },
      deps,
    );
  });
}
