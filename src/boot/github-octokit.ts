import { ProbotOctokit } from "probot";
import { budgetGitHubWrites, redactOutgoingText, type WriteBudget } from "../github/index.js";
import type { GadflyMetrics } from "../server/index.js";
import { countGitHubRequests } from "../server/index.js";

/**
 * The Octokit class Gadfly's Probot uses: Probot's own (app auth, throttling,
 * retries, pagination, GHE compatibility) with every request counted by route
 * for `/metrics`, every string it writes redacted of `secrets` (the last gate
 * before anything is published), and, given a `writeBudget`, every content-creating
 * request of an installation drawn from it before it is sent (registered last, so it
 * waits before Probot's own throttling). `plugin` extends the class, so Probot's
 * defaults still apply.
 */
export function githubOctokit(
  metrics: Pick<GadflyMetrics, "githubRequest">,
  secrets: readonly string[] = [],
  writeBudget: WriteBudget | null = null,
): typeof ProbotOctokit {
  const counted = ProbotOctokit.plugin(countGitHubRequests(metrics), redactOutgoingText(secrets));
  return writeBudget === null ? counted : counted.plugin(budgetGitHubWrites(writeBudget));
}
