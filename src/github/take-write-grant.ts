import type { GitHubClient } from "./github-client.js";
import type { WritePriority } from "./write-budget.js";
import type { WriteGrant } from "./write-grant.js";

/** What `budgetGitHubWrites` adds to an installation's client. */
export interface BudgetedClient {
  gadflyWrites?: {
    take(priority: WritePriority, signal?: AbortSignal): Promise<WriteGrant>;
  };
}

/**
 * A token for the next write on this client, taken now (undefined when the client has no
 * budget: tests' clients, the app-level one). The status board takes its token before it
 * renders, so the states that arrive while it waits go out as one edit.
 */
export async function takeWriteGrant(
  octokit: GitHubClient,
  priority: WritePriority,
  signal?: AbortSignal,
): Promise<WriteGrant | undefined> {
  return (octokit as BudgetedClient).gadflyWrites?.take(priority, signal);
}
