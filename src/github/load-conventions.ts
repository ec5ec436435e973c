import {
  CONVENTION_FILES,
  CONVENTION_LIMITS,
  type ConventionFile,
  conventionText,
} from "../run/index.js";
import type { ConventionCache } from "./convention-cache.js";
import type { GitHubClient, RepoRef } from "./github-client.js";
import { readPrefix } from "./read-prefix.js";

export interface LoadConventionsOptions {
  /** The round's stop: a read in flight is abandoned with it. */
  signal?: AbortSignal;
  /** A file GitHub would not give (any answer but 404, or no answer): for the log. The review goes on without it. */
  onError?: (path: string, error: unknown) => void;
  /** Bytes used of each file; the rest is cut (a note says so in the prompt). */
  fileBytes?: number;
  /** The files at a commit already read by this process: not asked of GitHub again. */
  cache?: ConventionCache;
}

/**
 * The convention files (AGENTS.md, CONTRIBUTING.md…) at one commit, in CONVENTION_FILES order:
 * for a pull request its base SHA, never its head (the author must not write the rules their own
 * review follows). Never throws: a missing file is not a convention, and one GitHub fails to
 * give is reported through `onError` and left out, so no round fails for its conventions.
 */
export async function loadConventionFiles(
  octokit: GitHubClient,
  repo: RepoRef,
  ref: string,
  options: LoadConventionsOptions = {},
): Promise<ConventionFile[]> {
  const fileBytes = options.fileBytes ?? CONVENTION_LIMITS.fileBytes;
  // Kept at the loader's default bound only: a caller asking for another bound reads afresh.
  const cache = options.fileBytes === undefined ? options.cache : undefined;
  const kept = cache?.get(repo, ref);
  if (kept !== undefined) return kept;
  let complete = true;
  const read = await Promise.all(
    CONVENTION_FILES.map(async (path): Promise<ConventionFile | null> => {
      try {
        const bytes = await readPrefix(octokit, repo, ref, path, fileBytes + 1, options.signal);
        if (bytes === null) return null;
        return { path, ...conventionText(bytes, fileBytes) };
      } catch (error) {
        // Missing is no convention; stopped is the round's own business.
        if ((error as { status?: unknown }).status === 404) return null;
        complete = false;
        if (options.signal?.aborted) return null;
        options.onError?.(path, error);
        return null;
      }
    }),
  );
  const files = read.filter((file): file is ConventionFile => file !== null);
  if (complete && options.signal?.aborted !== true) cache?.set(repo, ref, files);
  return files;
}
