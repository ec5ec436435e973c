import type { Context } from "probot";
import { oncePerDelivery } from "./once-per-delivery.js";
import { CHECK_RUN_NAME } from "./publish-check-run.js";
import type { RoundDependencies } from "./round-dependencies.js";
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
    // Only if the check's commit is still the PR's head, read under the PR's lock.
    return startRound(
      context.octokit,
      {
        repo,
        installationId,
        pullNumber,
        headSha: check.head_sha,
        trigger: { kind: "rerequest", deliveryId: context.id, actor: payload.sender.login },
      },
      deps,
    );
  });
}
