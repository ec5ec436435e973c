import type { ProbotOctokit } from "probot";

/** The authenticated client a handler gets from Probot (REST methods, pagination, retries, throttling). */
export type GitHubClient = InstanceType<typeof ProbotOctokit>;

// The repository a round is about: the core's type (run/store/run-store.ts), re-exported here
// so the github/ files keep importing it next to GitHubClient.
export type { RepoRef } from "../run/index.js";
