import { Octokit } from "@octokit/rest";

const silent = { debug() {}, info() {}, warn() {}, error() {} };

/** An `@octokit/rest` client for the fake, without the request log on stderr. */
export function quietOctokit(baseUrl: string, auth = "test-token"): Octokit {
  return new Octokit({ baseUrl, auth, log: silent });
}
