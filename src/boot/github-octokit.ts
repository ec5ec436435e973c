import { ProbotOctokit } from "probot";
import {
  budgetGitHubWrites,
  noBlindCreateRetries,
  redactOutgoingText,
  type WriteBudget,
} from "../github/index.js";
import type { GadflyMetrics } from "../server/index.js";
import { countGitHubRequests } from "../server/index.js";

/**
 * The Octokit class Gadfly's Probot uses: Probot's own (app auth, throttling,
 * retries, pagination, GHE compatibility) with every request counted by route
 * for `/metrics`, every string it writes redacted of `secrets` (the last gate
 * before anything is published), and, given a `writeBudget`, every content-creating
 * request of an installation drawn from it before it is sent (registered last, so it
 * waits before Probot's own throttling). `plugin` extends the class, so Probot's
 * defaults still apply. Given a `fetch`, every request is sent with it, the app's
 * installation-token requests and the tarball's redirect included.
 */
export function githubOctokit(
  metrics: Pick<GadflyMetrics, "githubRequest">,
  secrets: readonly string[] = [],
  writeBudget: WriteBudget | null = null,
  fetch: typeof globalThis.fetch | null = null,
): typeof ProbotOctokit {
  // Creates are not retried blindly: GitHub often creates the object and then answers 502, so
  // the publishing steps look for what they made before sending again (createOnce).
  const counted = ProbotOctokit.plugin(
    countGitHubRequests(metrics),
    redactOutgoingText(secrets),
    noBlindCreateRetries(),
  );
  const budgeted = writeBudget === null ? counted : counted.plugin(budgetGitHubWrites(writeBudget));
  return fetch === null ? budgeted : sendingWith(budgeted, fetch);
}

/**
 * `fetch` for every instance, unless its options name their own. A function default, so it
 * merges into each instance's `request` rather than replacing it. The app auth asks for
 * installation tokens with the instance's own request, so those go through it too.
 */
function sendingWith(Octokit: typeof ProbotOctokit, fetch: typeof globalThis.fetch) {
  return Octokit.defaults((options: Record<string, unknown>) => {
    const request = (options.request ?? {}) as { fetch?: typeof globalThis.fetch };
    return { ...options, request: { ...request, fetch: request.fetch ?? fetch } };
  });
}
