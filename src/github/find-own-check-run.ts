import type { GitHubClient, RepoRef } from "./github-client.js";
import { CHECK_RUN_NAME } from "./publish-check-run.js";

/**
 * The check run a round already created on its head SHA, or null: our check's name and the
 * round's id as its `external_id`. A round killed after GitHub created its check, but before
 * the check's id was stored, adopts it instead of starting a second one.
 */
export async function findOwnCheckRun(
  octokit: GitHubClient,
  repo: RepoRef,
  headSha: string,
  externalId: string,
): Promise<number | null> {
  const runs = await octokit.paginate(octokit.rest.checks.listForRef, {
    ...repo,
    ref: headSha,
    check_name: CHECK_RUN_NAME,
    filter: "all",
    per_page: 100,
  });
  return runs.find((run) => run.external_id === externalId)?.id ?? null;
}
