import { ProbotOctokit } from "probot";
import { redactOutgoingText } from "../github/index.js";
import type { GadflyMetrics } from "../server/index.js";
import { countGitHubRequests } from "../server/index.js";

/**
 * The Octokit class Gadfly's Probot uses: Probot's own (app auth, throttling,
 * retries, pagination, GHE compatibility) with every request counted by route
 * for `/metrics`, and every string it writes redacted of `secrets` (the last gate
 * before anything is published). `plugin` extends the class, so Probot's defaults still apply.
 */
export function githubOctokit(
  metrics: Pick<GadflyMetrics, "githubRequest">,
  secrets: readonly string[] = [],
): typeof ProbotOctokit {
  return ProbotOctokit.plugin(countGitHubRequests(metrics), redactOutgoingText(secrets));
}
