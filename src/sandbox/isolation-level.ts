/**
 * How strongly an agent CLI is kept from the host, strongest first:
 * - `bwrap`: bubblewrap namespaces; the CLI sees its workspace copy, a private
 *   `/tmp` and `HOME`, its own PIDs only, nothing of the data directory.
 * - `user`: a dedicated unprivileged uid/gid (Gadfly runs as root); file
 *   permissions and `/proc` rules keep it from our secrets.
 * - `none`: the CLI runs as Gadfly's own user; only the scrubbed workspace copy,
 *   fresh `HOME` and environment allow-list stand between it and the host.
 */
export type IsolationLevel = "bwrap" | "user" | "none";

/**
 * Whether a `command` provider may review a pull request from a fork: only at
 * the bubblewrap level, or when the operator opted in for that provider.
 */
export function commandMayReviewFork(
  level: IsolationLevel,
  provider: { allowForks: boolean },
): boolean {
  return level === "bwrap" || provider.allowForks;
}
