import type { ProbotOctokit } from "probot";

/** The authenticated client a handler gets from Probot (REST methods, pagination, retries, throttling). */
export type GitHubClient = InstanceType<typeof ProbotOctokit>;

/** The repository a round is about. */
export interface RepoRef {
  owner: string;
  repo: string;
}
