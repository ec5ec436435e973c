import {
  ConfigError,
  type ConfigIssue,
  DEFAULT_REPO_CONFIG,
  parseConfigText,
  REPO_CONFIG_LIMITS,
  RepoConfig,
} from "../config/index.js";
import type { GitHubClient, RepoRef } from "./github-client.js";

export const REPO_CONFIG_PATH = ".github/gadfly.yml";

export interface LoadedRepoConfig {
  config: RepoConfig;
  /** Set when the file exists but is invalid: the round runs on defaults and says so on the PR. */
  issues: ConfigIssue[] | null;
}

/**
 * Reads `.github/gadfly.yml` from the default branch, never from the PR's
 * head: a pull request must not rewrite its own review. Without a `ref`, GitHub's contents
 * API reads the default branch itself: one request, not a look-up of its name first.
 */
export async function loadRepoConfig(
  octokit: GitHubClient,
  repo: RepoRef,
): Promise<LoadedRepoConfig> {
  let text: string;
  try {
    const { data } = await octokit.rest.repos.getContent({ ...repo, path: REPO_CONFIG_PATH });
    if (Array.isArray(data) || data.type !== "file" || !("content" in data)) {
      return {
        config: DEFAULT_REPO_CONFIG,
        issues: [{ path: "", message: `${REPO_CONFIG_PATH} is not a file` }],
      };
    }
    const bytes = Buffer.from(data.content, "base64");
    if (Math.max(bytes.length, data.size) > REPO_CONFIG_LIMITS.fileBytes) {
      // Checked before parsing: the file is untrusted and parsing costs in its size.
      return {
        config: DEFAULT_REPO_CONFIG,
        issues: [
          {
            path: "",
            message: `${REPO_CONFIG_PATH} is ${Math.max(bytes.length, data.size)} bytes; the limit is ${REPO_CONFIG_LIMITS.fileBytes}`,
          },
        ],
      };
    }
    text = bytes.toString("utf8");
  } catch (error) {
    if ((error as { status?: number }).status === 404)
      return { config: DEFAULT_REPO_CONFIG, issues: null };
    throw error;
  }
  try {
    return { config: parseConfigText(REPO_CONFIG_PATH, text, RepoConfig), issues: null };
  } catch (error) {
    if (error instanceof ConfigError) return { config: DEFAULT_REPO_CONFIG, issues: error.issues };
    throw error;
  }
}
